import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { fakePlatforms, type FakePlatforms } from '../support/fake-platforms.js';

/**
 * A tools/call answered by the direct path (facades/mcp/direct-call.ts) whose client closes the
 * connection before the answer is charged nothing and answered nothing, as the SDK's server drops
 * a cancelled call and as REST does (router/client-gone.ts); a client that stays is charged.
 */
let app: TestApp;
let fake: FakePlatforms;

beforeAll(async () => {
  fake = fakePlatforms();
  app = await startTestApp({ platforms: { live: fake.adapters } });
});
afterAll(async () => {
  await app?.close();
});

const call = (location: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_stays', arguments: { location, platforms: ['airbnb'], limit: 2 } } });

function post(key: string, body: string, leaveAfterMs?: number): Promise<{ status: number; text: string } | 'left'> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.baseUrl}/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', (err) => (leaveAfterMs === undefined ? reject(err) : resolve('left')));
    req.end(body);
    if (leaveAfterMs !== undefined) setTimeout(() => (req.destroy(), resolve('left')), leaveAfterMs);
  });
}

it('charges nothing for a call whose client left before its answer, and charges a client that stayed', async () => {
  fake.set('airbnb', { delayMs: 400 });
  const { key, accountId } = await app.newKey('live', { credits: 1_000 });
  const before = await app.balanceOf(accountId);
  expect(await post(key, call('Lisbon'), 100)).toBe('left');
  // The leg ends 300 ms later; the call then finds its client gone and bills nothing.
  await new Promise((r) => setTimeout(r, 900));
  expect(await app.balanceOf(accountId)).toBe(before);

  const stayed = await post(key, call('Porto'));
  expect(stayed).not.toBe('left');
  const answer = JSON.parse((stayed as { text: string }).text) as { result: { isError?: boolean; structuredContent: { meta: { creditsCharged: number } } } };
  expect(answer.result.isError).toBeUndefined();
  expect(answer.result.structuredContent.meta.creditsCharged).toBeGreaterThan(0);
  expect(await app.balanceOf(accountId)).toBe(before - answer.result.structuredContent.meta.creditsCharged);
});
