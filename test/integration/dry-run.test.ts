import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/router/app-router.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';
import { fakePlatforms, type FakePlatforms } from '../support/fake-platforms.js';

/** Issue 16 item 2: dryRun=true prices the very call it is sent with, free, asking no platform. */
let app: TestApp;
let fake: FakePlatforms;
beforeAll(async () => {
  fake = fakePlatforms();
  app = await startTestApp({ platforms: { live: fake.adapters } });
});
beforeEach(() => fake.reset());
afterAll(() => app.close());

interface EstimateBody {
  data: { dryRun: true; worstCaseCredits: number; likelyCredits: number; maxCredits: number | null; withinMaxCredits: boolean; platforms: { platform: string; worstCaseCredits: number; likelyCredits: number; cached: boolean; breaker: string }[] };
  meta: { creditsCharged: number; requestId: string };
}

describe('dryRun', () => {
  it('answers worst case and likely cost per platform without a platform call, never billed; cached legs are priced exactly', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    const before = fake.calls();
    const path = '/v1/search?location=Porto&platforms=airbnb,vrbo&limit=5';
    const dry = (await (await app.get(`${path}&dryRun=true&maxCredits=6`, key)).json()) as EstimateBody;
    expect(dry.data).toMatchObject({ dryRun: true, worstCaseCredits: 10, likelyCredits: 10, maxCredits: 6, withinMaxCredits: false });
    expect(dry.data.platforms.map((p) => [p.platform, p.cached, p.breaker])).toEqual([['airbnb', false, 'closed'], ['vrbo', false, 'closed']]);
    expect(dry.meta.creditsCharged).toBe(0);
    expect(fake.calls()).toBe(before);
    expect(await app.balanceOf(accountId)).toBe(100);

    // One real call fills the leg cache; the estimate of the same call then knows its cost.
    fake.set('vrbo', { mode: 'empty' });
    const real = (await (await app.get(path, key)).json()) as { meta: { creditsCharged: number } };
    const afterReal = fake.calls();
    const again = (await (await app.get(`${path}&dryRun=true`, key)).json()) as EstimateBody;
    expect(fake.calls()).toBe(afterReal);
    const airbnb = again.data.platforms.find((p) => p.platform === 'airbnb')!;
    expect(airbnb.cached).toBe(true);
    expect(again.data.likelyCredits).toBeLessThanOrEqual(again.data.worstCaseCredits);
    expect(again.data.likelyCredits).toBe(real.meta.creditsCharged + (again.data.platforms.find((p) => p.platform === 'vrbo')!.cached ? 0 : 5));
    expect(await app.balanceOf(accountId)).toBe(100 - real.meta.creditsCharged);
  });

  it('validates like the call itself and is free even when the balance could not pay', async () => {
    const { key } = await app.newKey('live', { credits: 0 });
    const err = await expectError(await app.get('/v1/search?location=Porto&limit=500&dryRun=true', key), 400, 'limit_out_of_range');
    expect(err.param).toBe('limit');
    const res = await app.get('/v1/price?platform=vrbo&listingId=6000003&checkIn=2030-03-01&checkOut=2030-03-04&dryRun=true', key);
    expect(res.status).toBe(200);
    expect(((await res.json()) as EstimateBody).data).toMatchObject({ worstCaseCredits: 1, withinMaxCredits: true });
  });

  it('is the same over MCP (structured content valid against the tool schema) and tRPC', async () => {
    const { key } = await app.newKey('live', { credits: 100 });
    const before = fake.calls();
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const result = (await client.callTool({ name: 'get_reviews', arguments: { platform: 'airbnb', listingId: '40000012', limit: 40, dryRun: true } })) as unknown as { structuredContent: EstimateBody };
    expect(result.structuredContent.data).toMatchObject({ dryRun: true, worstCaseCredits: 4 });
    await client.close();

    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: `Bearer ${key}` } })] });
    const viaTrpc = (await trpc.listing.query({ platform: 'airbnb', id: '40000012', dryRun: true })) as unknown as { kind: string } & EstimateBody;
    expect(viaTrpc.kind).toBe('estimate');
    expect(viaTrpc.data.worstCaseCredits).toBe(1);
    expect(fake.calls()).toBe(before);
  });
});
