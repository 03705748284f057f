import { z } from 'zod';
import { COST_PLACEHOLDER } from '../../domain/billing/pricing.js';
import { EstimateView } from '../../domain/model/estimate.js';
import { JobHandle } from '../../domain/model/job.js';
import { Platform } from '../../domain/model/common.js';
import type { Operation } from '../../domain/platforms.js';
import { ShapedItem, ShapedMeta, ShapedReview } from '../../domain/model/shaped.js';
import { AvailabilityInput, AvailabilityOutput } from '../../router/schemas/availability.schema.js';
import { ListingInput, ListingOutput } from '../../router/schemas/listing.schema.js';
import { PriceCompareInput, PriceCompareOutput } from '../../router/schemas/price-compare.schema.js';
import { PriceInput, PriceOutput } from '../../router/schemas/price.schema.js';
import { ReviewsInput, ReviewsOutput } from '../../router/schemas/reviews.schema.js';
import { SearchInput, SearchOutput } from '../../router/schemas/search.schema.js';
import { JobInput, JobOutput } from '../../router/schemas/job.schema.js';
import { jobByReference } from './job-tool-output.js';
import { ownItem, withOwnMeta } from './own-meta.js';
import { withoutRestatedKeywords } from './restated-keywords.js';

/** The seven tools of spec 4.10, one per REST operation, each calling the same procedure. */
export interface ToolSpec {
  name: string;
  procedure: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
}

/**
 * A dry run's data, by the one field that sets it apart from an item or a job handle: its other
 * fields are components.schemas.Estimate of the OpenAPI document, as the server instructions say.
 * Spelt out in each of the six tools, the estimate was 4.8 kB of the list (issue 34 item 4).
 */
const DryRun = EstimateView.pick({ dryRun: true }).loose();
const Accepted = z.object({ requestId: z.string(), creditsCharged: z.literal(0), platforms: z.array(Platform) });

/**
 * The envelope a data tool returns, the job handle when the call went async, or the estimate of a
 * dry run. A tool whose answers can be cut down (fields=, view=compact) states the cut-down form
 * only: every whole item and meta is one of them too, so the union with the whole form accepted
 * exactly the same answers while stating each shape twice (issue 34 item 4).
 */
function orJob(output: z.ZodObject, shaped: z.ZodType[] = []): z.ZodObject {
  const shape = output.shape as { data: z.ZodType; meta: z.ZodType };
  // The output schema states shapes; what each field means is in the OpenAPI document (output-schema.ts).
  const component = z.globalRegistry.get(output)?.id;
  // Every operation's output is a named component of the OpenAPI document; one that is not would point nowhere.
  if (!component) throw new Error('an MCP tool output must be a registered OpenAPI component (.meta({ id }))');
  const meaning = `What each field means: components.schemas.${component} of GET /v1/openapi.json.`;
  if (!shaped.length) return z.object({ data: z.union([shape.data, JobHandle, DryRun]), meta: z.union([shape.meta, Accepted]) }).describe(meaning);
  return z
    .object({ data: z.union([shaped[0]!, JobHandle, DryRun]), meta: ShapedMeta })
    .describe(`${meaning} Whole unless fields= or view=compact cut items and meta down.`);
}

const SPECS: ToolSpec[] = [
  { name: 'search_stays', procedure: 'search', title: 'Search stays', input: SearchInput, output: orJob(SearchOutput, [z.array(ownItem(ShapedItem, 'search'))]),
    description: `Search properties across Airbnb, Booking.com, Vrbo and Google Hotels, merged into one cursor-paginated list (GET /v1/search). Every item has distanceKm from the centre searched; radiusKm (with location) or bbox ("swLat,swLng,neLat,neLng", instead of location) limits the area, sort=distance_asc orders by distance, and meta.resolved.area states the area. ${COST_PLACEHOLDER}` },
  { name: 'check_availability', procedure: 'availability', title: 'Check availability', input: AvailabilityInput, output: orJob(AvailabilityOutput),
    description: `Day-by-day availability of one listing or a batch on one platform, at most 365 days, with each night's price where the platform's calendar states one (dates[].nightlyPrice, in currency); nights=N adds meta.cheapestStays, up to 5 cheapest stays of exactly N nights the calendar allows (GET /v1/availability). ${COST_PLACEHOLDER}` },
  { name: 'get_listing', procedure: 'listing', title: 'Get listing', input: ListingInput, output: orJob(ListingOutput, [ownItem(ShapedItem, 'listing')]),
    description: `Full details of one listing; with checkIn and checkOut a price for the stay is embedded, with its rooms and rates (price.offers: board, refundable until when, pay now or at the property), its fee lines (price.fees.items) and whether it is low, typical or high for the property (price.context); nearby lists the places the platform names near it, with distance and travel times; reviewSummary is the reviews' verdict as the platform states it (count, average, histogram, category scores, and mentions: the topics reviewers talk about, with how many speak well or ill of each) (GET /v1/listing/{platform}/{id}). ${COST_PLACEHOLDER}` },
  { name: 'get_price', procedure: 'price', title: 'Get price', input: PriceInput, output: orJob(PriceOutput),
    description: `Price quote for one listing and stay, with fees line by line (fees.items) and the occupancy echoed; basis says whether totalPrice is all_in, before_taxes or unknown. offers lists the rooms and rates (board, refundable, freeCancellationUntil, payment), cheapest first; context says whether the price is low, typical or high for the property (google), or is null with a warning (GET /v1/price). ${COST_PLACEHOLDER}` },
  { name: 'compare_prices', procedure: 'priceCompare', title: 'Compare prices', input: PriceCompareInput, output: orJob(PriceCompareOutput),
    description: `One property's offers across OTAs with the lowest and median total over the offers of the most common price basis (others listed apart in otherOffers), resolved by name (and location) or googleHotelId (GET /v1/price-compare). ${COST_PLACEHOLDER}` },
  { name: 'get_reviews', procedure: 'reviews', title: 'Get reviews', input: ReviewsInput, output: orJob(ReviewsOutput, [z.array(ShapedReview)]),
    description: `Normalised reviews of one listing, paginated, on the platform's native rating scale; google reviews take the property's Google Maps place id (ChIJ…); q filters by a word (title, text, liked, disliked); summary=true adds meta.reviewSummary (count, average, histogram, categories, mentions, byTripType; basis platform or sample) (GET /v1/reviews). ${COST_PLACEHOLDER}` },
  { name: 'get_job', procedure: 'job', title: 'Get job', input: JobInput, output: JobOutput,
    description: 'Status of a job from an async answer; when completed, data.result holds the result and meta.creditsCharged what it cost, once (GET /v1/jobs/{jobId}). Always free.' },
];

/**
 * The tools in their one order, each output stating only the meta fields its operation answers,
 * and get_job's naming the tool whose output schema states a job's result.
 */
export const TOOLS: ToolSpec[] = SPECS.map((t) => ({ ...t, output: t.procedure === 'job' ? jobByReference(t.output, SPECS) : withOwnMeta(t.output, t.procedure as Operation) }));

type JsonSchema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>>; required?: string[] };

/**
 * JSON Schema of a tool's input: the types a caller sends (required = what has no default), with
 * each default shown. Computed once, not on every tools/list.
 */
export function inputJsonSchema(input: z.ZodObject): JsonSchema {
  // A fresh object of the same shape: a schema with a registered id would come out as a bare $ref.
  const plain = z.object(input.shape);
  const asInput = z.toJSONSchema(plain, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const asOutput = z.toJSONSchema(plain, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  for (const [name, prop] of Object.entries(asOutput.properties ?? {})) {
    if ('default' in prop && asInput.properties?.[name]) asInput.properties[name] = { ...asInput.properties[name], default: prop.default };
  }
  delete asInput.$schema;
  return withoutRestatedKeywords(standardKeywords(asInput), 'input');
}

/**
 * JSON Schema has `examples` (an array), not OpenAPI's `example`: strict validators (Ajv in strict
 * mode, which several clients run) refuse to compile a schema with an unknown keyword.
 */
export function standardKeywords<T>(node: T, namesOnly = false): T {
  if (Array.isArray(node)) return node.map((n) => standardKeywords(n)) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    // Under `properties` the keys are field names, not keywords.
    if (k === 'example' && !namesOnly) out.examples = [v];
    else out[k] = standardKeywords(v, k === 'properties' && !namesOnly);
  }
  return out as T;
}
