import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.js';
import { CAPABILITIES, OPERATIONS, PLATFORMS } from '../../src/domain/platforms.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectCommonRules, expectError } from '../support/common-rules.js';

interface Matrix {
  data: { keyKind: string; platforms: { platform: string; operations: string[] }[] };
  meta: { requestId: string; creditsCharged: number; warnings: unknown[] };
}

const today = new Date().toISOString().slice(0, 10);
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function matrixOf(key: string): Promise<Matrix> {
  const res = await app.get('/v1/platforms', key);
  expect(res.status).toBe(200);
  return (await res.json()) as Matrix;
}

describe('GET /v1/platforms', () => {
  it('obeys the cross-cutting rules', async () => {
    await expectCommonRules(app, '/v1/platforms');
  });

  it('gives sandbox keys the whole capability matrix, free, in the envelope', async () => {
    const { key } = await app.newKey('sandbox');
    const body = await matrixOf(key);
    expect(body.data.keyKind).toBe('sandbox');
    expect(body.data.platforms.map((p) => p.platform)).toEqual([...PLATFORMS]);
    for (const { platform, operations } of body.data.platforms) {
      expect(operations).toEqual(OPERATIONS.filter((op) => (CAPABILITIES[op] as readonly string[]).includes(platform)));
    }
    expect(body.meta.creditsCharged).toBe(0);
  });

  it('gives live keys what the live adapters serve, and refusals name exactly those platforms', async () => {
    const { key } = await app.newKey('live', { credits: 100 });
    const body = await matrixOf(key);
    expect(body.data.keyKind).toBe('live');
    const served = (op: string) => body.data.platforms.filter((p) => p.operations.includes(op)).map((p) => p.platform);
    // Platforms the enum offers but no live adapter serves.
    expect(served('search')).not.toContain('expedia');
    const balance = async () => ((await (await app.get('/v1/account', key)).json()) as { data: { credits: { balance: number } } }).data.credits.balance;
    const before = await balance();
    const res = await app.get(`/v1/reviews?platform=expedia&listingId=123`, key);
    const err = await expectError(res, 400, 'invalid_request');
    expect(err.subCode).toBe('platform_not_supported');
    expect(err.message).toBe(`expedia does not serve reviews for live keys; live keys get reviews from: ${served('reviews').join(', ') || 'no platform'}. See GET /v1/platforms.`);
    expect(await balance()).toBe(before);
    const checkIn = addDays(today, 30);
    const price = await app.get(`/v1/price?platform=tripadvisor&listingId=1&checkIn=${checkIn}&checkOut=${addDays(checkIn, 2)}`, key);
    expect((await expectError(price, 400, 'invalid_request')).message).toContain(`live keys get price from: ${served('price').join(', ') || 'no platform'}.`);
  });

  it('is published in the OpenAPI description for both key kinds', async () => {
    const doc = (await (await app.get('/v1/openapi.json')).json()) as { info: { description: string }; paths: Record<string, unknown> };
    expect(doc.paths['/platforms']).toBeDefined();
    expect(doc.info.description).toContain('For **sandbox keys**: airbnb: search, availability, listing, price, reviews');
    expect(doc.info.description).toContain('For **live keys** (this deployment):');
  });
});
