import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TRIGGERS } from '../../src/adapters/platforms/sandbox/adapter.js';
import type { RateLimiter } from '../../src/domain/ports/rate-limits.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { SANDBOX_HOTEL } from '../support/sandbox-hotel.js';

/**
 * Issue 22 item 1: every answer of every tool, in the full, compact and `fields=` views, matches
 * the output schema the tool advertises. Real clients list the tools first, and the SDK client
 * then checks each structuredContent against its tool's schema (-32602 when it does not match);
 * Ajv in strict mode, as several clients run it, checks the same answers independently.
 */
let app: TestApp;
let client: Client;
let tools: Tool[];
const validators = new Map<string, ValidateFunction>();
/**
 * The same schemas closed: every object that lists its properties refuses others. The listed
 * schemas leave them open (additionalProperties costs bytes, issue 34), so this is what holds
 * that they still name every field an answer sends: a meta or item field a tool's schema forgot
 * (own-meta.ts's tables drifting from the operations) fails here.
 */
const closedValidators = new Map<string, ValidateFunction>();

function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const out = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === 'properties' || k === '$defs' ? Object.fromEntries(Object.entries(v as object).map(([n, s]) => [n, closed(s)])) : closed(v)]));
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

beforeAll(async () => {
  // The matrix is a few hundred calls: the per-user bucket is not what is checked here.
  const unlimited: RateLimiter = { take: async (_bucket, limit) => ({ allowed: true, limit, remaining: limit, resetAtMs: Date.now(), retryAfterMs: 0 }) };
  app = await startTestApp({ worker: true, limiter: unlimited });
  const { key } = await app.newKey('sandbox');
  // Strict Ajv over the advertised schemas, compiled first: the SDK client's own socket would
  // otherwise sit idle past the server's keep-alive while they compile.
  const listed = await fetch(`${app.baseUrl}/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
  for (const tool of ((await listed.json()) as { result: { tools: Tool[] } }).result.tools) {
    validators.set(tool.name, ajv.compile(tool.outputSchema!));
    closedValidators.set(tool.name, ajv.compile(closed(tool.outputSchema!) as object));
  }
  client = new Client({ name: 'schema-check', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  // Listed first, as every real client does: from here on the SDK validates each answer.
  ({ tools } = await client.listTools());
}, 60_000);
afterAll(async () => {
  await client?.close();
  await app?.close();
});

type Answer = { isError?: boolean; content: { text: string }[]; structuredContent?: { data: Record<string, unknown>; meta: Record<string, unknown> } };

/** Calls through the SDK client (which validates) and checks the answer with strict Ajv too. */
async function call(name: string, args: Record<string, unknown>): Promise<Answer> {
  const label = `${name} ${JSON.stringify(args)}`;
  const answer = (await client.callTool({ name, arguments: args })) as Answer;
  if (answer.isError) {
    if (process.env.DEBUG_MCP) console.log(label, answer.content[0]?.text);
    return answer;
  }
  const validate = validators.get(name)!;
  expect(validate(answer.structuredContent), `${label}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
  // Open on purpose: a dryRun estimate is stated by its dryRun: true alone (the rest is OpenAPI's
  // Estimate), and get_job's result and meta by reference to the operation's own tool.
  if (args.dryRun === true || name === 'get_job') return answer;
  const names = closedValidators.get(name)!;
  expect(names(answer.structuredContent), `${label} sends a field its schema does not name: ${JSON.stringify(names.errors?.slice(0, 3))}`).toBe(true);
  return answer;
}

const STAY = { checkIn: '2031-05-01', checkOut: '2031-05-04' };
const LOCATIONS = ['Lisbon', 'Springfield', 'Nowhere-at-all', SANDBOX_TRIGGERS.partial, SANDBOX_TRIGGERS.unavailable, SANDBOX_TRIGGERS.formatChanged, SANDBOX_TRIGGERS.missing];
const IDS = ['40000012', SANDBOX_TRIGGERS.missing, SANDBOX_TRIGGERS.unavailable, SANDBOX_TRIGGERS.formatChanged];
const SEARCH_VIEWS = [{}, { view: 'compact' }, { fields: ['id', 'name', 'price.totalPrice'] }, { view: 'compact', fields: ['id', 'images', 'location.lat'] }, { dryRun: true }];

describe('every tool answer matches its advertised output schema', () => {
  it('advertises a schema for every tool, each compiling under strict Ajv', () => {
    expect(tools.map((t) => t.name).sort()).toEqual(['check_availability', 'compare_prices', 'get_job', 'get_listing', 'get_price', 'get_reviews', 'search_stays']);
    expect(validators.size).toBe(7);
  });

  it('search_stays: every sandbox trigger in every view, with and without dates', async () => {
    let answered = 0;
    for (const location of LOCATIONS) {
      for (const view of SEARCH_VIEWS) {
        for (const stay of [{}, STAY]) {
          const a = await call('search_stays', { location, platforms: ['airbnb', 'booking', 'google'], limit: 5, ...stay, ...view });
          if (!a.isError) answered++;
        }
      }
    }
    // The partial trigger's compact meta keeps partial, currency and the failed leg.
    const compact = await call('search_stays', { location: SANDBOX_TRIGGERS.partial, platforms: ['airbnb', 'booking'], view: 'compact' });
    expect(compact.structuredContent!.meta).toMatchObject({ partial: true, currency: 'USD', failedPlatforms: [{ platform: 'booking', status: 'failed' }] });
    expect(answered).toBeGreaterThan(40);
  }, 120_000);

  it('get_listing, get_price, check_availability, get_reviews: every trigger id in every view', async () => {
    for (const id of IDS) {
      for (const view of [{}, { view: 'compact' }, { fields: ['id', 'name', 'price.totalPrice'] }, { view: 'compact', fields: ['id', 'images'] }]) {
        await call('get_listing', { platform: 'airbnb', id, ...view });
        await call('get_listing', { platform: 'booking', id, ...STAY, ...view });
      }
      await call('get_price', { platform: 'vrbo', listingId: id, ...STAY });
      await call('check_availability', { platform: 'airbnb', listingId: id, startDate: '2031-05-01', endDate: '2031-05-20' });
      await call('check_availability', { platform: 'airbnb', listingIds: [id, '40000013'], startDate: '2031-05-01', endDate: '2031-05-20' });
      for (const view of [{}, { fields: ['rating', 'text'] }]) await call('get_reviews', { platform: 'airbnb', listingId: id, ...view });
      await call('get_price', { platform: 'vrbo', listingId: id, ...STAY, dryRun: true });
    }
  }, 120_000);

  it('compare_prices: every trigger name and hotel id', async () => {
    for (const name of [SANDBOX_HOTEL, 'Hotel Zqxwv Nowhere Imaginary', SANDBOX_TRIGGERS.partial, SANDBOX_TRIGGERS.unavailable, SANDBOX_TRIGGERS.formatChanged, SANDBOX_TRIGGERS.missing]) {
      await call('compare_prices', { name, location: 'Lisbon', ...STAY });
      await call('compare_prices', { name, location: 'Lisbon', ...STAY, dryRun: true });
    }
    await call('compare_prices', { googleHotelId: SANDBOX_TRIGGERS.unavailable, ...STAY });
  }, 60_000);

  it("each tool's own meta fields (its schema states only its operation's), in every view", async () => {
    // Issue 34 item 4: meta.deduplicated and resolved (place, area) are search's, cheapestStays
    // availability's, reviewSummary reviews', resolved.property price-compare's.
    for (const view of [{}, { view: 'compact' }, { fields: ['id', 'distanceKm'] }]) {
      const around = await call('search_stays', { location: 'Lisbon', radiusKm: 5, ...STAY, ...view });
      expect(around.structuredContent!.meta.resolved, JSON.stringify(view)).toMatchObject({ area: { radiusKm: 5 } });
      const boxed = await call('search_stays', { bbox: '38.70,-9.17,38.73,-9.12', ...view });
      expect(boxed.structuredContent!.meta.resolved).toHaveProperty('area.bbox');
    }
    const calendar = await call('check_availability', { platform: 'booking', listingId: '40000012', startDate: '2031-05-01', endDate: '2031-05-20', nights: 3 });
    expect(calendar.structuredContent!.meta.cheapestStays).toBeDefined();
    for (const view of [{}, { fields: ['rating'] }]) {
      const reviews = await call('get_reviews', { platform: 'airbnb', listingId: '40000012', summary: true, ...view });
      expect(reviews.structuredContent!.meta.reviewSummary).toBeDefined();
    }
    const compared = await call('compare_prices', { name: SANDBOX_HOTEL, location: 'Lisbon', ...STAY });
    expect(compared.structuredContent!.meta.resolved).toHaveProperty('property.name');
  }, 60_000);

  it('sandbox:async: the job handle, then get_job pending and completed, in every view', async () => {
    const views = [{}, { view: 'compact' }, { fields: ['id', 'name'] }];
    const jobs: string[] = [];
    for (const view of views) {
      const a = await call('search_stays', { location: SANDBOX_TRIGGERS.async, ...STAY, ...view });
      expect(a.structuredContent!.data.status).toBe('pending');
      jobs.push(a.structuredContent!.data.jobId as string);
    }
    const priced = await call('compare_prices', { name: SANDBOX_TRIGGERS.async, location: 'Lisbon', ...STAY });
    jobs.push(priced.structuredContent!.data.jobId as string);
    for (const jobId of jobs) {
      let status = 'pending';
      for (let i = 0; i < 100 && status !== 'completed'; i++) {
        const polled = await call('get_job', { jobId });
        status = polled.structuredContent!.data.status as string;
        if (status !== 'completed') await new Promise((r) => setTimeout(r, 100));
      }
      expect(status, jobId).toBe('completed');
      // The completed job says which operation's data its result holds (one schema variant each).
      const done = await call('get_job', { jobId });
      expect(done.structuredContent!.data.operation).toBe(jobId === jobs.at(-1) ? 'priceCompare' : 'search');
    }
    const unknown = await call('get_job', { jobId: 'job_00000000000000000000000000' });
    expect(unknown.isError).toBe(true);
  }, 60_000);
});
