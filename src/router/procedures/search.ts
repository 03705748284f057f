import { searchStays } from '../../domain/operations/search.js';
import { COST_PLACEHOLDER } from '../../domain/billing/pricing.js';
import { authedProcedure, shapeableBilledSteps } from '../procedure.js';
import { shapeableAnswer } from '../jobs/async-answer.js';
import { rememberValidPages } from '../page-output.js';
import { operationEnv, settle } from '../billing/envelope.js';
import { SearchInput, SearchOutput, searchParamsOf } from '../schemas/search.schema.js';
import type { Authed } from '../context.js';

/** Validated once per memoized page in production (page-output.ts); in full elsewhere. */
const Output = shapeableAnswer(rememberValidPages(SearchOutput));

const DESCRIPTION =
  `Fans out to each platform, merges into one cursor-paginated list. ${COST_PLACEHOLDER} May answer 202 with a job for slow live scrapes. ` +
  'Where: location (a place or "lat,lng"), with radiusKm for a circle, or bbox for a box; every item carries distanceKm from the centre searched ' +
  '(null with a distance_unavailable warning when unknown), sort=distance_asc orders by it, and meta.resolved.area states the radius or box. ' +
  'Every platform filters the area after retrieval by the coordinates distanceKm is measured from; a result without coordinates is left out, with a filter_not_supported warning counting them.';

async function run({ ctx, input }: { ctx: Authed; input: SearchInput }) {
  return settle(ctx, await searchStays(operationEnv(ctx), searchParamsOf(input)));
}

export const search = authedProcedure
  .meta({ openapi: { method: 'GET', path: '/search', tags: ['Search'], summary: 'Search stays across platforms', description: DESCRIPTION } })
  .input(SearchInput)
  .use(shapeableBilledSteps)
  .output(Output)
  .query(run);

export const searchByBody = authedProcedure
  .meta({ openapi: { method: 'POST', path: '/search', tags: ['Search'], summary: 'Search stays (JSON body)', description: `JSON-body form of GET /search. ${DESCRIPTION}` } })
  .input(SearchInput)
  .use(shapeableBilledSteps)
  .output(Output)
  .query(run);
