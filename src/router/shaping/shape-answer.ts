import { compactItem, compactMeta } from '../../domain/shaping/compact.js';
import { project } from '../../domain/shaping/projection.js';
import type { Step } from '../middleware/steps.js';

type Envelope = { data: unknown; meta: Record<string, unknown> };

/**
 * Issue 16 item 3: `fields=` and `view=compact` shape a result after it was validated against
 * the full output schema and billed, so they change what is sent, never what is charged or
 * cached. Job handles and estimates pass unchanged. Sits outside `.output()`. The tRPC face tags
 * a shaped answer `kind: 'shaped'`, so a dashboard's types tell it from a full result.
 */
export const shapeAnswer: Step = async ({ input, next }) => {
  const result = await next();
  const { fields, view } = (input ?? {}) as { fields?: string[]; view?: 'full' | 'compact' };
  if (!result.ok || (!fields && view !== 'compact')) return result;
  const answer = result.data as Envelope & { kind?: string };
  // Only a result envelope is shaped: it alone has per-leg lines.
  if (!answer?.meta || !Array.isArray(answer.meta.platformResults)) return result;
  let data = fields ? project(answer.data, fields) : answer.data;
  let meta = answer.meta;
  if (view === 'compact') {
    data = Array.isArray(data) ? data.map((item) => compactItem(item, fields)) : compactItem(data, fields);
    meta = compactMeta(meta);
  }
  return { ...result, data: { ...answer, ...(answer.kind ? { kind: 'shaped' } : {}), data, meta } } as typeof result;
};
