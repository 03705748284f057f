import { ServiceError } from '../../domain/errors.js';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from '../context.js';

/**
 * The REST request's own input, read after auth and rate limit like any bad input: a body the
 * face could not read is refused here, and path parameters, which trpc-to-openapi hands over
 * still percent-encoded (stack-notes pitfall 4), are decoded. MCP and tRPC callers send ids
 * verbatim. Returns the decoded input to read instead of the raw one, or null when nothing changed.
 */
export async function readRestInput(ctx: Context, meta: OpenApiMeta | undefined, getRawInput: () => Promise<unknown>): Promise<(() => Promise<unknown>) | null> {
  if (ctx.bodyError) throw ctx.bodyError;
  const template = meta?.openapi?.path;
  if (ctx.transport !== 'rest' || !template?.includes('{')) return null;
  const raw = (await getRawInput()) as Record<string, unknown> | undefined;
  if (!raw || typeof raw !== 'object') return null;
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
  return async () => decoded;
}
