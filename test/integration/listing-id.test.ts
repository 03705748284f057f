import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';
import { replayLiveConfig, startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';

/**
 * Listing ids that cannot be a listing of their platform are judged before any leg: 400
 * invalid_listing_id naming the parameter, free, nothing sent upstream, so they can never count
 * toward a platform's circuit breaker. Live keys against the replay upstream; sandbox keys keep
 * their documented trigger ids.
 */
let app: TestApp;
let replay: ReplayUpstream;
let upstreamRequests = 0;

const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
const stay = `checkIn=${day(30)}&checkOut=${day(33)}`;
const window = `startDate=${day(30)}&endDate=${day(40)}`;

beforeAll(async () => {
  replay = await startReplayUpstream();
  replay.server.prependListener('request', () => upstreamRequests++);
  app = await startTestApp({
    config: {
      legDeadlineMs: 5_000,
      live: replayLiveConfig(replay.url),
    },
  });
});
afterAll(async () => {
  await app.close();
  await replay.close();
});

/** [path, the parameter the 400 must name] for every operation taking a listing id. */
const MALFORMED: [string, string][] = [
  ['/v1/listing/airbnb/x11', 'id'],
  ['/v1/listing/airbnb/0123', 'id'],
  [`/v1/availability?platform=booking&listingId=Not-A-Hotel&${window}`, 'listingId'],
  ['/v1/listing/google/short', 'id'],
  [`/v1/price?platform=airbnb&listingId=abc&${stay}`, 'listingId'],
  [`/v1/price?platform=booking&listingId=gb%2FBad_Slug&${stay}`, 'listingId'],
  [`/v1/availability?platform=airbnb&listingId=12ab&${window}`, 'listingId'],
  [`/v1/availability?platform=booking&listingIds=4400101,nope!&${window}`, 'listingIds'],
  [`/v1/availability?platform=airbnb&url=${encodeURIComponent('https://www.airbnb.com/rooms/0')}&${window}`, 'url'],
  ['/v1/reviews?platform=airbnb&listingId=rooms-1', 'listingId'],
  ['/v1/reviews?platform=booking&listingId=-1', 'listingId'],
  [`/v1/price-compare?googleHotelId=a.b%2Fc&${stay}`, 'googleHotelId'],
];

describe('malformed listing ids', () => {
  it('are a free 400 invalid_listing_id naming the parameter, for live keys, with nothing sent upstream', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 100 });
    const before = upstreamRequests;
    for (const [path, param] of MALFORMED) {
      const err = await expectError(await app.get(path, key), 400, 'invalid_listing_id');
      expect({ path, param: err.param, retryable: err.retryable }).toEqual({ path, param, retryable: false });
    }
    expect(upstreamRequests).toBe(before);
    expect(await app.balanceOf(accountId)).toBe(100);
  });

  it('are judged by the same rule for sandbox keys', async () => {
    const { key } = await app.newKey('sandbox');
    for (const [path, param] of MALFORMED) {
      expect({ path, param: (await expectError(await app.get(path, key), 400, 'invalid_listing_id')).param }).toEqual({ path, param });
    }
  });

  it('leave the sandbox trigger ids working for sandbox keys only', async () => {
    const sandbox = (await app.newKey('sandbox')).key;
    await expectError(await app.get('/v1/listing/airbnb/sandbox-missing', sandbox), 404, 'listing_not_found');
    await expectError(await app.get(`/v1/price?platform=booking&listingId=sandbox%3Aunavailable&${stay}`, sandbox), 503, 'upstream_unavailable');
    const batch = await app.get(`/v1/availability?platform=vrbo&listingIds=6000001,sandbox-missing&${window}`, sandbox);
    expect(batch.status).toBe(200);
    const live = (await app.newKey('live', { plan: 'scale', credits: 10 })).key;
    expect((await expectError(await app.get('/v1/listing/airbnb/sandbox-missing', live), 400, 'invalid_listing_id')).param).toBe('id');
  });

  it('well-formed ids still reach the platform', async () => {
    const { key } = await app.newKey('live', { plan: 'scale', credits: 10 });
    const before = upstreamRequests;
    const res = await app.get('/v1/listing/airbnb/910000001', key);
    expect(res.status, await res.text()).toBe(200);
    expect(upstreamRequests).toBeGreaterThan(before);
  });

  it('from one account, never switch a platform off for another account', async () => {
    const abuser = (await app.newKey('live', { plan: 'scale', credits: 0 })).key;
    for (let i = 0; i < 20; i++) await expectError(await app.get(`/v1/listing/airbnb/x${i}`, abuser), 400, 'invalid_listing_id');
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 10 });
    const res = await app.get(`/v1/availability?platform=airbnb&listingId=910000001&startDate=2027-06-07&endDate=2027-06-13`, key);
    const body = (await res.json()) as { meta: { platformResults: { status: string }[] } };
    expect({ status: res.status, legs: body.meta.platformResults.map((r) => r.status) }).toEqual({ status: 200, legs: ['ok'] });
    expect(await app.balanceOf(accountId)).toBe(7);
  });

  it('get the same 400 as an MCP tool error', async () => {
    const { key } = await app.newKey('sandbox');
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    try {
      const result = (await client.callTool({ name: 'get_reviews', arguments: { platform: 'airbnb', listingId: 'rooms-1' } })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content[0]!.text).error).toMatchObject({ code: 'invalid_listing_id', param: 'listingId', retryable: false });
    } finally {
      await client.close();
    }
  });
});
