import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/facades/rest/openapi.js';
import { appRouter } from '../../src/router/app-router.js';
import { CREDIT_SCHEDULES, costSentence, legCredits, type CreditSchedule } from '../../src/domain/billing/pricing.js';
import { OPERATIONS, type Operation } from '../../src/domain/platforms.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Issue 22 item 6: the price each tool and operation description states is generated from the
 * credit table, so it is right under CREDIT_SCHEDULE=summary as under the reference schedule.
 */
type Json = Record<string, any>;
const TOOL_OF: Record<Operation, string> = { search: 'search_stays', availability: 'check_availability', listing: 'get_listing', price: 'get_price', priceCompare: 'compare_prices', reviews: 'get_reviews' };
const PATH_OF: Record<Operation, [string, string]> = { search: ['/search', 'get'], availability: ['/availability', 'get'], listing: ['/listing/{platform}/{id}', 'get'], price: ['/price', 'get'], priceCompare: ['/price-compare', 'get'], reviews: ['/reviews', 'get'] };
const FLAT: Operation[] = ['listing', 'price', 'priceCompare'];

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

describe.each(CREDIT_SCHEDULES)('CREDIT_SCHEDULE=%s', (schedule: CreditSchedule) => {
  let tools: { name: string; description: string }[] = [];
  beforeAll(async () => {
    const app = await startTestApp({ config: { creditSchedule: schedule } });
    apps.push(app);
    const { key } = await app.newKey('sandbox');
    const res = await fetch(`${app.baseUrl}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    ({ tools } = ((await res.json()) as { result: { tools: typeof tools } }).result);
  });

  it('a flat price is the figure the credit table charges for one item', () => {
    for (const op of FLAT) {
      const charged = legCredits(schedule, 'live', op, { platform: 'google', ok: true, count: 1 });
      expect(costSentence(schedule, op), op).toBe(`Costs ${charged} credit${charged === 1 ? '' : 's'}.`);
    }
  });

  it('every MCP tool description and every OpenAPI operation description states the schedule\'s price, and no other', () => {
    const doc = buildOpenApiDocument(appRouter, 'https://api.stays.test', { creditSchedule: schedule }) as Json;
    const other = CREDIT_SCHEDULES.find((s) => s !== schedule)!;
    for (const op of OPERATIONS) {
      const sentence = costSentence(schedule, op);
      const tool = tools.find((t) => t.name === TOOL_OF[op])!;
      const [path, method] = PATH_OF[op];
      const described = [tool.description, doc.paths[path][method].description as string];
      if (op === 'search') described.push(doc.paths['/search'].post.description);
      for (const text of described) {
        expect(text, `${op}: ${text}`).toContain(sentence);
        expect(text).not.toContain('{{cost}}');
        if (costSentence(other, op) !== sentence) expect(text).not.toContain(costSentence(other, op));
      }
    }
    // The two schedules really differ where it matters to a caller.
    expect(costSentence('summary', 'listing')).not.toBe(costSentence('reference', 'listing'));
  });
});
