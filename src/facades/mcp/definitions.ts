import type { Deps } from '../../deps.js';
import { platformsNote } from '../../domain/capabilities.js';
import { withCostSentence } from '../../domain/billing/pricing.js';
import { operationOf } from '../../router/jobs/jobs.js';
import { SERVICE_VERSION } from '../../version.js';
import { ICON_PATH } from '../docs/icon.js';
import { outputJsonSchema } from './output-schema.js';
import type { JsonSchema } from './shared-definitions.js';
import { TOOLS, inputJsonSchema } from './tools.js';

/**
 * What both MCP eras announce, built once from the tool specs: the legacy server (SDK 1.x,
 * `initialize`) and the modern one (SDK 2.x, 2026-07-28) hand out these same objects, so the
 * two eras cannot drift apart.
 */

export interface Icon {
  src: string;
  mimeType: string;
  sizes: string[];
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema: { type: 'object'; [key: string]: unknown };
  annotations: { title: string; readOnlyHint: boolean; idempotentHint: boolean; openWorldHint: boolean; destructiveHint: boolean };
  icons: Icon[];
}

export const SERVER_NAME = 'accommodation-data-service';
export const SERVER_TITLE = 'Accommodation Data Service';

/**
 * What a model reads first (server/discover, initialize): the seven tools in one paragraph, with
 * what holds for every data tool (caps, dry runs and their estimate, views, async answers, control
 * characters) stated here once rather than in each tool's description or schema (issue 34 item 4:
 * the six copies were 3.4 kB of every tools/list, the estimate's shape 4.8 kB more).
 */
export const INSTRUCTIONS =
  'Search stays and read listings, calendars, price quotes, cross-OTA price comparisons and reviews on Airbnb, Booking.com, Vrbo and Google Hotels. ' +
  'Start with search_stays; pass an item\'s platform and its id as answered (stays_<platform>_…; its platformListingId works too) to get_listing (as id), get_price, check_availability or get_reviews (as listingId; google reviews take the Maps place id ChIJ… instead); compare_prices takes a property name, or a google item\'s id as googleHotelId. ' +
  'Every call states its cost in credits (meta.creditsCharged); each tool\'s description states its price. ' +
  'Pass maxCredits to cap what a call may cost: a call whose worst case is higher is refused before any platform is asked, free (402 max_credits_exceeded); dryRun: true answers what the call would cost instead, free (data: the worst case and likely credits, in all and per platform, as components.schemas.Estimate of GET /v1/openapi.json states them). ' +
  'fields selects item fields by dotted path; view "compact" drops null and empty fields, extra images and fee breakdowns (far fewer tokens). ' +
  'A slow live scrape may answer with a job handle instead (data.jobId, data.status "pending"): poll it with get_job, free. ' +
  'Send a progressToken to get a progress notification per platform as it finishes and the result itself instead of the handle (waiting a bounded time). ' +
  'No text parameter takes control characters (U+0000-U+001F, U+007F): such a call is a tool error naming the field.';

/** Our own icon (no CDN), served at /icon.svg: clients fetch it from the origin they already trust. */
export function iconsOf(publicUrl: string): Icon[] {
  return [{ src: `${publicUrl}${ICON_PATH}`, mimeType: 'image/svg+xml', sizes: ['any'] }];
}

export function serverInfoOf(publicUrl: string) {
  return { name: SERVER_NAME, title: SERVER_TITLE, version: SERVICE_VERSION, websiteUrl: `${publicUrl}/docs`, icons: iconsOf(publicUrl) };
}

/** Output schemas depend on no setting: built once per process (tens of ms), not per server. */
let outputSchemas: ReadonlyMap<string, JsonSchema> | undefined;
function outputSchemaOf(name: string): JsonSchema {
  outputSchemas ??= new Map(TOOLS.map((t) => [t.name, outputJsonSchema(t.output)]));
  return outputSchemas.get(name)!;
}

/**
 * The tools in the one fixed order of TOOLS (MCP 2026-07-28: servers list tools in a stable
 * order, so clients and prompt caches see the same list every time).
 */
export function toolDefinitions(deps: Deps): ToolDefinition[] {
  const icons = iconsOf(deps.config.publicUrl);
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    // The price sentence is the schedule's in force (CREDIT_SCHEDULE); get_job states none.
    description: `${t.procedure === 'job' ? t.description : withCostSentence(t.description, deps.config.creditSchedule, operationOf(t.procedure))}${platformsNote(t.procedure, deps.platforms)}`,
    inputSchema: inputJsonSchema(t.input) as ToolDefinition['inputSchema'],
    outputSchema: outputSchemaOf(t.name) as ToolDefinition['outputSchema'],
    // Data tools reach out to the platforms; get_job only reads our own job table.
    annotations: { title: t.title, readOnlyHint: true, idempotentHint: true, openWorldHint: t.name !== 'get_job', destructiveHint: false },
    icons,
  }));
}
