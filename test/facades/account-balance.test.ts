import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * GET /v1/account shows the balance as the database holds it now, not as the 2 s key cache read
 * it at authentication or for a job: a client checking its balance after a call or a top-up sees
 * the change at once.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

it('shows a change of balance at once, within the key cache TTL', async () => {
  const { key, keyId, accountId } = await app.newKey('live', { credits: 100 });
  const balance = async () => ((await (await fetch(`${app.baseUrl}/v1/account`, { headers: { Authorization: `Bearer ${key}` } })).json()) as { data: { credits: { balance: number } } }).data.credits.balance;
  expect(await balance()).toBe(100);
  // What the job worker reads is cached: it must not be what /account answers from.
  await app.deps.keys.findRecentById(keyId);
  await app.sql`update accounts set credit_balance = credit_balance - 30 where id = ${accountId}`;
  expect(await balance()).toBe(70);
  await app.sql`update accounts set credit_balance = credit_balance + 500 where id = ${accountId}`;
  expect(await balance()).toBe(570);
});
