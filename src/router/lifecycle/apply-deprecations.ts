import { usedDeprecations } from '../../domain/lifecycle/deprecations.js';
import { deprecationNotice, sunsetPassed } from '../../domain/lifecycle/notice.js';
import type { Context } from '../context.js';

/** Where the `Link` of a deprecation points: the changelog this deployment serves (GET /changelog). */
export const changelogUrl = (publicUrl: string): string => `${publicUrl}/changelog`;

/**
 * Spec 9 on every face: a call using a deprecated operation, parameter or value gets the
 * Deprecation, Sunset and Link headers and a `deprecated_usage` warning (meta.warnings, hence MCP
 * structuredContent); past its sunset it is refused with 410 `gone`, before any credit logic,
 * with the same headers. Nothing to do, and nothing allocated, while the table is empty.
 */
export function applyDeprecations(ctx: Context, operation: string, rawInput: unknown): void {
  if (ctx.deps.deprecations.length === 0) return; // the usual case: the hot path allocates nothing here
  const used = usedDeprecations(ctx.deps.deprecations, operation, rawInput);
  if (used.length === 0) return;
  const notice = deprecationNotice(used, changelogUrl(ctx.deps.config.publicUrl));
  Object.assign(ctx.res.headers, notice.headers);
  const gone = sunsetPassed(used, ctx.deps.clock.now().getTime());
  if (gone) throw gone;
  ctx.deprecationWarnings = notice.warnings;
}
