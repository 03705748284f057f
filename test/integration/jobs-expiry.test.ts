import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/adapters/system/clock.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';

/** Job retention (24 h) on a clock the test moves. */
const clock = new FakeClock('2027-06-01T08:00:00Z');
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ clock, worker: true });
});
afterAll(() => app.close());

describe('job retention', () => {
  it('answers for 24 hours, then 404 job_not_found, and the periodic task deletes the row', async () => {
    const { key } = await app.newKey('sandbox');
    const res = await app.get('/v1/search?location=sandbox:async&platforms=vrbo', key);
    expect(res.status).toBe(202);
    const jobId = ((await res.json()) as { data: { jobId: string } }).data.jobId;
    const deadline = Date.now() + 15_000;
    let status = '';
    while (status !== 'completed' && Date.now() < deadline) {
      status = ((await (await app.get(`/v1/jobs/${jobId}`, key)).json()) as { data: { status: string } }).data.status;
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(status).toBe('completed');

    clock.advance(24 * 60 * 60_000 - 1_000);
    expect((await app.get(`/v1/jobs/${jobId}`, key)).status).toBe(200);
    expect(await app.deps.jobs.deleteExpired(clock.now())).toBe(0);
    clock.advance(2_000);
    await expectError(await app.get(`/v1/jobs/${jobId}`, key), 404, 'job_not_found');
    expect(await app.deps.jobs.deleteExpired(clock.now())).toBe(1);
    const rows = await app.sql`select 1 from async_jobs where id = ${jobId}`;
    expect(rows).toHaveLength(0);
  });
});
