import { ServiceError } from '../../domain/errors.js';
import { t } from '../trpc.js';

/**
 * trpc-to-openapi hands path parameters over still percent-encoded (stack-notes pitfall 4).
 * This decodes them for REST calls only: MCP and tRPC callers send ids verbatim.
 */
export const decodeRestPathParams = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
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
