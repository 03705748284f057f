import { ServiceError } from '../errors.js';
import type { Warning } from '../model/common.js';
import { dayStartMs, describeTarget, type Deprecation } from './deprecations.js';

/** What a call that uses deprecated items is told: its response headers and warnings. */
export interface DeprecationNotice {
  headers: Record<string, string>;
  warnings: Warning[];
}

/**
 * The headers of RFC 9745 (`Deprecation: @<unix seconds>`), RFC 8594 (`Sunset: <HTTP date>`) and
 * the `Link` to each changelog entry, for the items a call uses. With several, the earliest
 * dates speak for the call (the first thing that will stop working).
 */
export function deprecationNotice(used: readonly Deprecation[], changelogUrl: string): DeprecationNotice {
  const deprecatedMs = Math.min(...used.map((d) => dayStartMs(d.deprecatedOn)));
  const sunsetMs = Math.min(...used.map((d) => dayStartMs(d.sunsetOn)));
  const links = [...new Set(used.map((d) => `<${changelogUrl}#${d.changelogAnchor}>; rel="deprecation"`))];
  return {
    headers: { Deprecation: `@${Math.floor(deprecatedMs / 1000)}`, Sunset: new Date(sunsetMs).toUTCString(), Link: links.join(', ') },
    warnings: used.map((d) => ({
      code: 'deprecated_usage',
      message: `The ${describeTarget(d.target)} is deprecated since ${d.deprecatedOn} and answers 410 gone from ${d.sunsetOn}. ${d.replacement} See ${changelogUrl}#${d.changelogAnchor}.`,
    })),
  };
}

/** The 410 of an item whose sunset has passed, naming the parameter when it is one. */
export function sunsetPassed(used: readonly Deprecation[], nowMs: number): ServiceError | null {
  const gone = used.find((d) => nowMs >= dayStartMs(d.sunsetOn));
  if (!gone) return null;
  const param = gone.target.kind === 'operation' ? undefined : gone.target.parameter;
  return new ServiceError('gone', `The ${describeTarget(gone.target)} was removed on ${gone.sunsetOn}. ${gone.replacement}`, param ? { param } : {});
}
