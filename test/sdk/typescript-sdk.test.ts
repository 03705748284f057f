import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/adapters/system/clock.js';
import { addDays } from '../../src/domain/dates.js';
import type { FetchLike } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { importBuiltSdk } from '../support/sdk.js';
import { SANDBOX_HOTEL } from '../support/sandbox-hotel.js';

/**
 * The official TypeScript SDK, built as its README says (`npm run build` in clients/typescript),
 * loaded from its entry dist/index.js and run against the sandbox over real HTTP.
 */
type Sdk = Awaited<ReturnType<typeof importBuiltSdk>>;
let sdk: Sdk;
let app: TestApp;

beforeAll(async () => {
  sdk = await importBuiltSdk();
  app = await startTestApp({ worker: true });
}, 120_000);
afterAll(() => app?.close());

interface Sent { path: string; status: number; headers: Record<string, string> }

/** The global fetch, recording what each request sent and what it got. */
function recordingFetch(log: Sent[]): FetchLike {
  return async (url, init) => {
    const res = await fetch(url, init);
    log.push({ path: new URL(url).pathname + new URL(url).search, status: res.status, headers: init.headers });
    return res;
  };
}

async function clientFor(log: Sent[] = [], options: { maxRetries?: number; maxRetryWaitSeconds?: number } = {}) {
  const { key } = await app.newKey('sandbox');
  return { key, client: new sdk.AccommodationClient({ apiKey: key, baseUrl: app.baseUrl, fetch: recordingFetch(log), ...options }) };
}

/** The ids of every page walked by hand with the largest page, for comparison. */
async function idsByHand(path: string, key: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await app.get(`${path}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
    const body = (await res.json()) as { data: { id?: string; reviewId?: string }[]; meta: { pagination: { nextCursor: string | null } } };
    ids.push(...body.data.map((item) => item.id ?? item.reviewId!));
    cursor = body.meta.pagination.nextCursor;
  } while (cursor);
  return ids;
}

describe('the TypeScript SDK against the sandbox', () => {
  it('walks every search page once: no duplicates, nothing missed', async () => {
    const log: Sent[] = [];
    const { key, client } = await clientFor(log);
    const ids: string[] = [];
    for await (const stay of client.searchAll({ location: 'Lisbon', platforms: ['vrbo'], limit: 10 })) ids.push(stay.id);
    expect(log.length).toBeGreaterThan(2);
    expect(log.slice(1).every((s) => s.path.includes('cursor='))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual((await idsByHand('/v1/search?location=Lisbon&platforms=vrbo', key)).sort());
    // The compact view's short meta names the next cursor alone.
    const compact: string[] = [];
    for await (const stay of client.searchAll({ location: 'Lisbon', platforms: ['vrbo'], limit: 20, view: 'compact' })) compact.push(stay.id ?? '');
    expect(compact.sort()).toEqual([...ids].sort());
  });

  it('walks every review page once', async () => {
    const { key, client } = await clientFor();
    const found = await client.search({ location: 'Porto', platforms: ['airbnb'], limit: 50 });
    if (sdk.isAccepted(found)) throw new Error('the sandbox answers Porto at once');
    const listing = found.data.find((p) => (p.reviewCount ?? 0) > 60);
    if (!listing) throw new Error('no sandbox listing with more than 60 reviews');
    const ids: string[] = [];
    for await (const review of client.reviewsAll({ platform: 'airbnb', listingId: listing.platformListingId, limit: 20 })) ids.push(review.reviewId);
    expect(ids.length).toBeGreaterThan(20);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual((await idsByHand(`/v1/reviews?platform=airbnb&listingId=${listing.platformListingId}`, key)).sort());
  });

  it('waits for a sandbox:async job to complete, long polling with Prefer: wait', async () => {
    const log: Sent[] = [];
    const { client } = await clientFor(log);
    const accepted = await client.search({ location: 'sandbox:async', limit: 5 });
    if (!sdk.isAccepted(accepted)) throw new Error('sandbox:async should answer 202');
    expect(log[0]!.status).toBe(202);
    const job = await client.waitForJob(accepted.data.jobId);
    expect(job.data.status).toBe('completed');
    if (job.data.operation !== 'search') throw new Error(`a search job, not ${job.data.operation}`);
    expect(job.data.result?.length).toBeGreaterThan(0);
    const polls = log.filter((s) => s.path.startsWith('/v1/jobs/'));
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((s) => /^wait=\d+$/.test(s.headers.Prefer ?? ''))).toBe(true);
  });

  it('asks the service to hold a call until its job ends (waitSeconds), and gets the 200', async () => {
    const log: Sent[] = [];
    const { client } = await clientFor(log);
    const answer = await client.search({ location: 'sandbox:async', limit: 5 }, { waitSeconds: 20 });
    if (sdk.isAccepted(answer)) throw new Error('the job ends well within 20 s');
    expect(answer.data.length).toBeGreaterThan(0);
    expect(log.map((s) => [s.status, s.headers.Prefer])).toEqual([[200, 'wait=20']]);
  });

  it('throws a typed ApiError for a 400, naming the parameter', async () => {
    const { client } = await clientFor();
    const error = await client.search({ location: 'Lisbon', limit: 500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdk.ApiError);
    const e = error as InstanceType<Sdk['ApiError']>;
    expect({ status: e.status, code: e.code, param: e.param, retryable: e.retryable }).toEqual({ status: 400, code: 'limit_out_of_range', param: 'limit', retryable: false });
    expect(e.requestId).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(e.docUrl).toMatch(/\/docs\/errors#limit_out_of_range$/);
  });

  it('retries a 429 after its Retry-After with the same Idempotency-Key, and succeeds', async () => {
    // A service whose clock stands still: the key's bucket (30 a minute) refills only when the
    // test moves the clock on, which it does by the Retry-After of each 429 the SDK receives.
    const clock = new FakeClock(new Date());
    const frozen = await startTestApp({ clock });
    try {
      const { key } = await frozen.newKey('sandbox');
      for (let i = 0; i < 30; i++) expect((await frozen.get('/v1/account', key)).status).toBe(200);
      const log: Sent[] = [];
      const record = recordingFetch(log);
      const client = new sdk.AccommodationClient({ apiKey: key, baseUrl: frozen.baseUrl, fetch: async (url, init) => {
        const res = await record(url, init);
        if (res.status === 429) clock.advance(Number(res.headers.get('retry-after')) * 1000);
        return res;
      } });
      const answer = await client.search({ location: 'Lisbon', limit: 3 });
      if (sdk.isAccepted(answer)) throw new Error('expected the search itself');
      expect(answer.data).toHaveLength(3);
      expect(log.map((s) => s.status)).toEqual([429, 200]);
      const [first, retry] = log.map((s) => s.headers['Idempotency-Key']);
      expect(first).toMatch(/^[0-9a-f-]{32,36}$/);
      expect(retry).toBe(first);
    } finally {
      await frozen.close();
    }
  });

  it('retries a retryable 503 with the same Idempotency-Key, and throws it typed when retries run out', async () => {
    const log: Sent[] = [];
    const record = recordingFetch(log);
    const { key } = await app.newKey('sandbox');
    // The sandbox's 503 asks for 30 s; this fetch shortens that one header so the test does not wait it.
    const shortened: FetchLike = async (url, init) => {
      const res = await record(url, init);
      return { status: res.status, text: () => res.text(), headers: { get: (name) => (name.toLowerCase() === 'retry-after' ? '1' : res.headers.get(name)) } };
    };
    const client = new sdk.AccommodationClient({ apiKey: key, baseUrl: app.baseUrl, fetch: shortened, maxRetries: 2 });
    const error = await client.search({ location: 'sandbox:unavailable' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdk.ApiError);
    expect(error).toMatchObject({ status: 503, code: 'upstream_unavailable', retryable: true, retryAfterSeconds: 1 });
    expect(log.map((s) => s.status)).toEqual([503, 503, 503]);
    expect(new Set(log.map((s) => s.headers['Idempotency-Key'])).size).toBe(1);
  });

  it('does not retry what retrying cannot mend, nor wait a Retry-After beyond its limit', async () => {
    const log: Sent[] = [];
    const { client } = await clientFor(log, { maxRetryWaitSeconds: 5 });
    const formatError = await client.search({ location: 'sandbox:format-changed' }).catch((e: unknown) => e);
    expect(formatError).toMatchObject({ status: 502, code: 'upstream_format_error', retryable: false });
    expect(log).toHaveLength(1);
    const unavailable = await client.search({ location: 'sandbox:unavailable' }).catch((e: unknown) => e);
    expect(unavailable).toMatchObject({ status: 503, code: 'upstream_unavailable', retryable: true, retryAfterSeconds: 30 });
    expect(log).toHaveLength(2);
  });

  it('calls every operation, each answer typed for its params', async () => {
    const { client } = await clientFor();
    const checkIn = addDays(new Date().toISOString().slice(0, 10), 30);
    const stay = { checkIn, checkOut: addDays(checkIn, 3) };
    const found = await client.search({ location: 'Lisbon', platforms: ['booking'], limit: 1, ...stay });
    if (sdk.isAccepted(found)) throw new Error('the sandbox answers Lisbon at once');
    const { platform, platformListingId: id } = found.data[0]!;
    const answers = await Promise.all([
      client.listing({ platform, id, ...stay }),
      client.availability({ platform, listingId: id, startDate: stay.checkIn, endDate: stay.checkOut }),
      client.price({ platform, listingId: id, ...stay }),
      client.priceCompare({ name: SANDBOX_HOTEL, location: 'Lisbon', ...stay }),
      client.reviews({ platform, listingId: id, limit: 3 }),
      client.search({ location: 'Lisbon', dryRun: true }),
    ]);
    expect(answers.map((a) => (sdk.isAccepted(a) ? 'accepted' : a.meta.requestId.slice(0, 4)))).toEqual(['req_', 'req_', 'req_', 'req_', 'req_', 'req_']);
    const [listing, , price, , , estimate] = answers;
    if (sdk.isAccepted(listing) || sdk.isAccepted(price) || sdk.isAccepted(estimate)) throw new Error('no job expected');
    expect(listing.data.platformListingId).toBe(id);
    expect(price.data.totalPrice).toBeGreaterThan(0);
    expect(estimate.data.dryRun).toBe(true);
    const platforms = await client.platforms();
    expect(platforms.data.keyKind).toBe('sandbox');
  });

  it('gives each logical call its own Idempotency-Key, and reads the account', async () => {
    const log: Sent[] = [];
    const { client } = await clientFor(log);
    await client.search({ location: 'Lisbon', limit: 1 });
    await client.search({ location: 'Lisbon', limit: 1 });
    expect(log[0]!.headers['Idempotency-Key']).not.toBe(log[1]!.headers['Idempotency-Key']);
    const account = await client.account();
    expect(account.data.key.env).toBe('sandbox');
  });
});
