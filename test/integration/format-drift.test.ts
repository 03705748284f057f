import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayLiveConfig, startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';
import type { AppRouter } from '../../src/router/app-router.js';
import { startTestApp, TEST_METRICS_TOKEN, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';

/**
 * Answers the adapter cannot read: the replay upstream serves airbnb listing 910000001 without
 * any title and Vrbo's search without `data.results` (format changes on the platforms' side),
 * through the real clients and parsers.
 * The leg is `failed` with `upstream_format_changed`, the parser's reason goes to a warning log
 * line and to ads_upstream_format_errors_total, nothing reaches the client but the code, and the
 * platform's circuit breaker does not count it.
 */
let app: TestApp;
let replay: ReplayUpstream;
let fixtures = '';
let replayUrl = '';
const lines: string[] = [];

const LISTING_FILE = 'airbnb/api/v3/StaysPdpSections/StaysPdpSections/U3RheUxpc3Rpbmc6OTEwMDAwMDAx.json';
const VRBO_SEARCH_FILE = 'vrbo/serp/g/SearchRequestQuery.json';
const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);

/** The same JSON with every `title` and `listingTitle` removed, wherever it is. */
function withoutTitles(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTitles);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'title' && k !== 'listingTitle').map(([k, v]) => [k, withoutTitles(v)]));
}

beforeAll(async () => {
  fixtures = await mkdtemp(path.join(tmpdir(), 'ads-drift-'));
  await cp('fixtures/replay', fixtures, { recursive: true });
  const file = path.join(fixtures, LISTING_FILE);
  await writeFile(file, JSON.stringify(withoutTitles(JSON.parse(await readFile(file, 'utf8')))));
  // Vrbo's search answers with its listings where `data.results` used to be.
  const vrbo = path.join(fixtures, VRBO_SEARCH_FILE);
  const serp = JSON.parse(await readFile(vrbo, 'utf8')) as { data: Record<string, unknown> };
  serp.data = { searchResults: serp.data.results };
  await writeFile(vrbo, JSON.stringify(serp));
  replay = await startReplayUpstream(fixtures);
  replayUrl = replay.url;
  app = await startTestApp({
    log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
    config: {
      legDeadlineMs: 5_000,
      live: replayLiveConfig(replayUrl),
    },
  });
});
afterAll(async () => {
  await app.close();
  await replay.close();
  await rm(fixtures, { recursive: true, force: true });
});

interface Leg {
  platform: string;
  status: string;
  error?: string;
}

describe('an answer in an unknown format', () => {
  it('fails the call with 502 upstream_format_error, not retryable, free, naming no internals', async () => {
    const { key, accountId } = await app.newKey('live', { plan: 'scale', credits: 10 });
    const err = await expectError(await app.get('/v1/listing/airbnb/910000001', key), 502, 'upstream_format_error');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('upstream_format_changed');
    expect(err.message).not.toContain('title');
    const [row] = await app.sql<{ b: string }[]>`select credit_balance::text as b from accounts where id = ${accountId}`;
    expect(Number(row!.b)).toBe(10);
  });

  it('is a failed leg with upstream_format_changed beside legs that answer, and costs nothing', async () => {
    const { key } = await app.newKey('live', { plan: 'scale', credits: 100 });
    const res = await app.get('/v1/search?location=Lisbon&platforms=airbnb,vrbo', key);
    const body = (await res.json()) as { meta: { partial: boolean; creditsCharged: number; platformResults: (Leg & { creditsCharged: number })[]; warnings: { code: string; message: string; platform?: string }[] } };
    expect(res.status).toBe(200);
    expect(body.meta.partial).toBe(true);
    expect(body.meta.platformResults).toEqual([
      expect.objectContaining({ platform: 'airbnb', status: 'ok' }),
      { platform: 'vrbo', status: 'failed', error: 'upstream_format_changed', creditsCharged: 0, cached: false, count: 0 },
    ]);
    expect(body.meta.platformResults[0]!.error).toBeUndefined();
    const warning = body.meta.warnings.find((w) => w.platform === 'vrbo')!;
    expect(warning.code).toBe('leg_failed');
    expect(warning.message).not.toContain('data.results');
  });

  it('logs a warning with platform, operation and the parser reason, and counts it per platform and operation', async () => {
    const { key } = await app.newKey('live', { plan: 'scale', credits: 10 });
    const metric = async () => {
      const text = await (await app.get('/metrics', TEST_METRICS_TOKEN)).text();
      const m = /^ads_upstream_format_errors_total\{platform="airbnb",operation="listing"\} (\d+)$/m.exec(text);
      return m ? Number(m[1]) : 0;
    };
    const before = await metric();
    lines.length = 0;
    await app.get('/v1/listing/airbnb/910000001', key);
    expect(await metric()).toBe(before + 1);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'upstream answer in an unknown format');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 40, platform: 'airbnb', operation: 'listing', reason: 'airbnb listing 910000001 came without a title' });
    expect(logged[0]!.requestId).toMatch(/^req_/);
  });

  it('does not feed the circuit breaker: the platform stays in use', async () => {
    const { key } = await app.newKey('live', { plan: 'scale', credits: 100 });
    for (let i = 0; i < 12; i++) await expectError(await app.get('/v1/listing/airbnb/910000001', key), 502, 'upstream_format_error');
    const res = await app.get(`/v1/availability?platform=airbnb&listingId=910000001&startDate=2027-06-07&endDate=2027-06-13`, key);
    const body = (await res.json()) as { meta: { platformResults: Leg[] } };
    expect({ status: res.status, legs: body.meta.platformResults }).toMatchObject({ status: 200, legs: [{ platform: 'airbnb', status: 'ok' }] });
    expect(body.meta.platformResults[0]!.error).toBeUndefined();
  });

  it('is reproduced by the sandbox trigger, which is not counted as drift', async () => {
    const { key } = await app.newKey('sandbox');
    const metrics = async () => (await (await app.get('/metrics', TEST_METRICS_TOKEN)).text()).match(/^ads_upstream_format_errors_total\{.*$/gm)?.join('\n') ?? '';
    const before = await metrics();
    lines.length = 0;
    const err = await expectError(await app.get('/v1/listing/booking/sandbox%3Aformat-changed', key), 502, 'upstream_format_error');
    expect(err.retryable).toBe(false);
    const res = await app.get(`/v1/availability?platform=vrbo&listingIds=6000001,sandbox%3Aformat-changed&startDate=${day(30)}&endDate=${day(35)}`, key);
    expect(res.status).toBe(200);
    expect(await metrics()).toBe(before);
    expect(lines.filter((l) => l.includes('unknown format'))).toEqual([]);
  });

  it('answers the same 502 on the tRPC face', async () => {
    const { key } = await app.newKey('sandbox');
    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: `Bearer ${key}` } })] });
    const err = await trpc.listing.query({ platform: 'booking', id: 'sandbox:format-changed' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    const data = (err as TRPCClientError<AppRouter>).data as unknown as { httpStatus: number; apiError: { error: { code: string; retryable: boolean } } };
    expect({ status: data.httpStatus, ...data.apiError.error }).toMatchObject({ status: 502, code: 'upstream_format_error', retryable: false });
  });

  it('unlike 5xx answers, which do count: from two accounts they open the breaker', async () => {
    const keys = [(await app.newKey('live', { plan: 'scale', credits: 100 })).key, (await app.newKey('live', { plan: 'scale', credits: 100 })).key];
    await fetch(`${replayUrl}/__replay`, { method: 'POST', body: JSON.stringify({ platform: 'vrbo', errorRate: 1 }) });
    try {
      const errors: string[] = [];
      for (let i = 0; i < 30 && !errors.includes('circuit_open'); i++) {
        const res = await app.get(`/v1/search?location=Lisbon&platforms=airbnb,vrbo&adults=${1 + (i % 6)}&rooms=${1 + (i % 3)}&limit=${1 + i}`, keys[i % 2]);
        const body = (await res.json()) as { meta: { platformResults: Leg[] } };
        errors.push(body.meta.platformResults.find((r) => r.platform === 'vrbo')!.error ?? 'none');
      }
      expect(errors[0]).toBe('upstream_error');
      expect(errors).toContain('circuit_open');
    } finally {
      await fetch(`${replayUrl}/__replay`, { method: 'DELETE' });
    }
  });
});
