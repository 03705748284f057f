import { ServiceError } from '../../domain/errors.js';
import { t } from '../trpc.js';

/**
 * The REST request's own input, read after auth and rate limit like any bad input: a body the
 * face could not read is refused here, and path parameters, which trpc-to-openapi hands over
 * still percent-encoded (stack-notes pitfall 4), are decoded. MCP and tRPC callers send ids
 * verbatim. One middleware for both: every middleware level costs tRPC a copy of its options.
 */
export const readRestInput = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  if (ctx.bodyError) throw ctx.bodyError;
  const template = meta?.openapi?.path;
  if (ctx.transport !== 'rest' || !template?.includes('{')) return next();
  const raw = (await getRawInput()) as Record<string, unknown> | undefined;
  if (!raw || typeof raw !== 'object') return next();
  const decoded: Record<string, unknown> = { ...raw };
  for (const [, key] of template.matchAll(/\{(\w+)\}/g)) {
    const value = decoded[key!];
    if (typeof value !== 'string') continue;
    try {
      decoded[key!] = decodeURIComponent(value);
    } catch {
      throw new ServiceError('invalid_request', `${key} is not a valid percent-encoded path segment.`, { subCode: 'invalid_encoding', param: key });
    }
  }
  return next({ getRawInput: async () => decoded });
});
