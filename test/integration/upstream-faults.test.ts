import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstreamClient, UpstreamNotFound, type UpstreamClient } from '../../src/adapters/platforms/http/upstream.js';
import { LegAbandoned, LegFailure } from '../../src/domain/ports/platform.js';
import { startReplayUpstream, type ReplayUpstream } from '../support/replay-upstream.js';

/**
 * How the HTTP client of a platform reports a failure to its breaker (issue 35): a fault only for
 * what the platform did (5xx, no answer within the per-attempt timeout, a refused connection),
 * never for what we did (our deadline or a caller stopping the request, a pool we closed).
 */
let replay: ReplayUpstream;
const clients: UpstreamClient[] = [];

beforeAll(async () => {
  replay = await startReplayUpstream();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await replay.close();
});

async function platform(name: string, faults: Record<string, number>, client: { timeoutMs?: number; retries?: number; baseUrl?: string } = {}) {
  await fetch(`${replay.url}/__replay`, { method: 'POST', body: JSON.stringify({ platform: name, ...faults }) });
  const c = createUpstreamClient({ platform: 'airbnb', baseUrl: client.baseUrl ?? `${replay.url}/${name}`, timeoutMs: client.timeoutMs ?? 1_000, retries: client.retries ?? 0, concurrency: 2 });
  clients.push(c);
  return c;
}

/** What the client throws for one GET, with our signal aborting after `abortAfterMs`. */
async function failureOf(client: UpstreamClient, abortAfterMs = 10_000): Promise<unknown> {
  const signal = AbortSignal.timeout(abortAfterMs);
  return client.json({ method: 'GET', path: '/anything' }, signal).then(
    () => 'answered',
    (err: unknown) => err,
  );
}

describe('the platform HTTP client', () => {
  it('blames the platform for a 502, and for a request it never answers within the per-attempt timeout', async () => {
    const bad = await failureOf(await platform('p502', { errorRate: 1 }));
    expect(bad).toBeInstanceOf(LegFailure);
    expect(bad).toMatchObject({ status: 'failed', platformFault: true });
    const hung = await failureOf(await platform('phang', { hangRate: 1 }, { timeoutMs: 300 }));
    expect(hung).toMatchObject({ status: 'failed', platformFault: true });
  });

  it('blames the platform when nothing listens at its address', async () => {
    const refused = await failureOf(await platform('nobody', {}, { baseUrl: 'http://127.0.0.1:9' }));
    expect(refused).toMatchObject({ status: 'failed', platformFault: true });
  });

  it('does not blame the platform when our signal stops a request it was still answering in time', async () => {
    const cut = await failureOf(await platform('pslow', { delayMs: 500 }, { timeoutMs: 2_000 }), 100);
    expect(cut).toBeInstanceOf(LegAbandoned);
    expect(cut).toMatchObject({ status: 'timeout', platformFault: false });
  });

  it('keeps the platform at fault for its 502 when our deadline ends the retries that followed', async () => {
    // The first attempt's 502 comes at once; the backoff before the next outlasts the signal.
    const client = await platform('pretry', { errorRate: 1 }, { retries: 5 });
    // 1 s: the first 502 arrives well within it on a loaded machine, and five retries back off longer.
    const err = await failureOf(client, 1_000);
    expect(err).toMatchObject({ status: 'failed', platformFault: true });
    expect(String((err as Error).message)).toContain('HTTP 502');
  });

  it('does not blame the platform for a pool we closed', async () => {
    const client = await platform('pclosed', {});
    clients.splice(clients.indexOf(client), 1);
    await client.close();
    expect(await failureOf(client)).toMatchObject({ status: 'failed', platformFault: false });
  });

  it('reports a 404 as not found, which is an answer', async () => {
    expect(await failureOf(await platform('pmissing', {}))).toBeInstanceOf(UpstreamNotFound);
  });
});
