/**
 * A job worker process for crash tests: the real runner and executor, with the platforms (the
 * edge we do not own) faked. DATABASE_URL names the test database; FAKE_DELAY_MS slows vrbo and
 * FAKE_MODE (ok, fail, ...) sets how it answers; WEBHOOK_ALLOW_LOOPBACK=true lets job webhooks
 * reach the test's own receiver.
 */
import { testConfig } from '../../src/config.js';
import { createDeps } from '../../src/deps.js';
import { startWorker } from '../../src/app/job-worker.js';
import { fakePlatforms, type LegMode } from './fake-platforms.js';

const url = process.env.DATABASE_URL!;
const fake = fakePlatforms();
fake.set('vrbo', { delayMs: Number(process.env.FAKE_DELAY_MS ?? 0), mode: (process.env.FAKE_MODE ?? 'ok') as LegMode });
const base = testConfig();
const config = testConfig({
  legDeadlineMs: 60_000,
  worker: { concurrency: 2, pollIntervalMs: 200, heartbeatMs: 300, staleAfterMs: 1_500, maxAttempts: 3 },
  webhooks: { ...base.webhooks, allowLoopback: process.env.WEBHOOK_ALLOW_LOOPBACK === 'true' },
});
const deps = createDeps(config, url, { platforms: { live: fake.adapters } });
const runner = await startWorker(deps, url);
console.log('worker ready');
process.on('SIGTERM', () => {
  void runner.stop().then(() => deps.close()).then(() => process.exit(0));
});
