import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/router/app-router.js';
import { replayLiveConfig, startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** Issue 25 item 4: meta.reviewSummary and q= on every face; sandbox for every basis, live for billing. */
let app: TestApp;
let replay: ReplayUpstream;
let key: string;
beforeAll(async () => {
  replay = await startReplayUpstream();
  app = await startTestApp({ config: { legDeadlineMs: 5_000, live: replayLiveConfig(replay.url) } });
  key = (await app.newKey('sandbox')).key;
});
afterAll(async () => {
  await app?.close();
  await replay?.close();
});

type Summary = { count: number; average: number | null; ratingScale: number; histogram: { rating: number; count: number }[] | null; categories: unknown[] | null; mentions?: unknown[] | null; byTripType: { tripType: string; count: number }[] | null; basis: string };
type Body = { data: { rating: number | null; title: string | null; text: string | null; liked: string | null; disliked: string | null; tripType: string | null }[]; meta: { reviewSummary?: Summary; creditsCharged: number; warnings: { code: string; message: string }[] } };
async function ok(path: string, k = key): Promise<Body> {
  const res = await app.get(path, k);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as Body;
}
/** A listing with 30 to 100 reviews (so one page of 100 reads them all). */
const listingOf = async (platform: string) => (await ok(`/v1/search?location=Lisbon&platforms=${platform}&limit=50`)).data.map((p) => (p as unknown as { platformListingId: string; reviewCount: number | null })).find((p) => (p.reviewCount ?? 0) > 30 && p.reviewCount! <= 100)!.platformListingId;
/** Google reviews are keyed by a Maps place id; the sandbox places any such id among its listings. */
const PLACE = 'ChIJCQgB_SjBvzsRTNqpJU5Xifc';

describe('reviews summary=true', () => {
  it('google states a histogram adding up to its total and category scores (basis platform)', async () => {
    const id = PLACE;
    const body = await ok(`/v1/reviews?platform=google&listingId=${id}&summary=true`);
    const s = body.meta.reviewSummary!;
    expect(s.basis).toBe('platform');
    expect(s.histogram!.reduce((n, h) => n + h.count, 0)).toBe(s.count);
    expect(s.categories!.length).toBeGreaterThan(0);
    expect(s.byTripType).toBeNull();
    expect(body.meta.warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/^reviewSummary\.byTripType:/));
    expect((await ok(`/v1/reviews?platform=google&listingId=${id}`)).meta).not.toHaveProperty('reviewSummary');
  });

  it('airbnb states categories but no histogram: null with a warning', async () => {
    const s = (await ok(`/v1/reviews?platform=airbnb&listingId=${await listingOf('airbnb')}&summary=true`)).meta.reviewSummary!;
    expect([s.basis, s.histogram, s.categories!.length]).toEqual(['platform', null, 6]);
  });

  it('says when the platform counts more reviews than paging reads: the summary\'s total beside the pages\' (issue 34)', async () => {
    const own = (await app.newKey('sandbox')).key;
    const items = (await ok('/v1/search?location=Lisbon&platforms=airbnb&limit=70', own)).data as unknown as { platformListingId: string; reviewCount: number | null }[];
    const many = items.find((p) => (p.reviewCount ?? 0) > 200)!;
    const few = items.find((p) => (p.reviewCount ?? 0) > 30 && p.reviewCount! <= 100)!;
    const path = `/v1/reviews?platform=airbnb&listingId=${many.platformListingId}&summary=true&limit=100`;
    const first = await ok(path, own);
    const next = (first.meta as unknown as { pagination: { nextCursor: string } }).pagination.nextCursor;
    const second = await ok(`${path}&cursor=${encodeURIComponent(next)}`, own);
    const read = first.data.length + second.data.length;
    expect([first.meta.reviewSummary!.count, read]).toEqual([many.reviewCount, 150]);
    for (const body of [first, second]) {
      expect(body.meta.warnings.filter((w) => w.code === 'reviews_truncated').map((w) => w.message)).toEqual([
        `airbnb counts ${many.reviewCount} reviews for this listing but serves only its newest 150: paging reads 150, while reviewSummary with basis platform (and the listing's reviewCount) counts and averages all ${many.reviewCount}.`,
      ]);
    }
    expect((await ok(`/v1/reviews?platform=airbnb&listingId=${few.platformListingId}&summary=true&limit=100`, own)).meta.warnings.map((w) => w.code)).not.toContain('reviews_truncated');
  });

  it('booking is computed over the reviews read, with the figures per trip type (basis sample)', async () => {
    const body = await ok(`/v1/reviews?platform=booking&listingId=${await listingOf('booking')}&summary=true&limit=50`);
    const s = body.meta.reviewSummary!;
    const rated = body.data.filter((r) => r.rating !== null);
    expect(s).toMatchObject({ basis: 'sample', count: rated.length, ratingScale: 10, categories: null });
    expect(s.histogram!.reduce((n, h) => n + h.count, 0)).toBe(s.count);
    expect(s.byTripType!.reduce((n, t) => n + t.count, 0)).toBe(body.data.filter((r) => r.tripType !== null).length);
  });
});

describe('reviews q=', () => {
  it('keeps the reviews mentioning the word anywhere in title, text, liked or disliked, case-insensitively', async () => {
    const id = await listingOf('booking');
    const all = await ok(`/v1/reviews?platform=booking&listingId=${id}&limit=100`);
    const noisy = await ok(`/v1/reviews?platform=booking&listingId=${id}&limit=100&q=NOISY`);
    const mentions = (r: Body['data'][number]) => [r.title, r.text, r.liked, r.disliked].some((t) => t?.toLowerCase().includes('noisy'));
    expect(noisy.data.length).toBeGreaterThan(0);
    expect(noisy.data).toEqual(all.data.filter(mentions));
  });
});

describe('on the other faces, and billing', () => {
  it('MCP answers validate against the advertised output schema; tRPC has the types', async () => {
    const id = PLACE;
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const r = (await client.callTool({ name: 'get_reviews', arguments: { platform: 'google', listingId: id, summary: true, q: 'location' } })) as unknown as { structuredContent: Body; isError?: boolean };
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.meta.reviewSummary!.basis).toBe('platform');
    const shaped = (await client.callTool({ name: 'get_reviews', arguments: { platform: 'booking', listingId: await listingOf('booking'), summary: true, fields: ['rating'] } })) as unknown as { structuredContent: Body; isError?: boolean };
    expect(shaped.isError).toBeFalsy();
    expect(shaped.structuredContent.meta.reviewSummary!.basis).toBe('sample');
    await client.close();
    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: `Bearer ${key}` } })] });
    const answer = await trpc.reviews.query({ platform: 'google', listingId: id, summary: true });
    if (answer.kind === 'shaped' || !('reviewSummary' in answer.meta)) throw new Error('expected a full answer');
    expect(answer.meta.reviewSummary?.basis).toBe('platform');
  });

  it('a live google summary is the place\'s own figures, and costs nothing more', async () => {
    const { key: live, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    const plain = await ok('/v1/reviews?platform=google&listingId=ChIJfx1AzulejoTeste0001&limit=4', live);
    const summed = await ok('/v1/reviews?platform=google&listingId=ChIJfx1AzulejoTeste0001&limit=4&summary=true', live);
    expect([plain.meta.creditsCharged, summed.meta.creditsCharged]).toEqual([2, 2]);
    expect(summed.meta.reviewSummary).toMatchObject({ basis: 'platform', histogram: null, categories: null, byTripType: null });
    expect(await app.balanceOf(accountId)).toBe(96);
  });

  it('a live airbnb summary is read from the listing page (its total and rating), and costs nothing more', async () => {
    const { key: live, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    const body = await ok('/v1/reviews?platform=airbnb&listingId=910000001&summary=true', live);
    expect(body.meta.reviewSummary).toEqual({ count: 112, average: 4.87, ratingScale: 5, histogram: null, categories: null, mentions: null, byTripType: null, basis: 'platform' });
    expect(body.meta.warnings.map((w) => w.message.split(':')[0])).toEqual(expect.arrayContaining(['reviewSummary.histogram', 'reviewSummary.categories', 'reviewSummary.mentions', 'reviewSummary.byTripType']));
    expect(body.meta.creditsCharged).toBe(2);
    expect(await app.balanceOf(accountId)).toBe(98);
  });
});
