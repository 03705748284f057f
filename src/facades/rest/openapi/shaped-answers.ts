import { z } from 'zod';
import { Platform } from '../../../domain/model/common.js';
import { EstimateView } from '../../../domain/model/estimate.js';
import { ShapedAnswer } from '../../../domain/model/shaped.js';
import type { Json } from './json.js';

export { ShapedAnswer };


/** The answer of `dryRun=true` (issue 16). */
export const EstimateAnswer = z
  .object({ data: EstimateView, meta: z.object({ requestId: z.string(), creditsCharged: z.literal(0), platforms: z.array(Platform) }) })
  .meta({ id: 'EstimateAnswer' });

/**
 * The 200 of a billed operation is its envelope, or (dryRun) the estimate, or (fields, view) the
 * shaped envelope: documented as anyOf so a client validating answers accepts all three.
 */
export function withShapedAnswers(ok: Json, shaped: boolean): void {
  const content = ok.content?.['application/json'];
  if (!content?.schema) return;
  content.schema = { anyOf: [content.schema, { $ref: '#/components/schemas/EstimateAnswer' }, ...(shaped ? [{ $ref: '#/components/schemas/ShapedAnswer' }] : [])] };
}
