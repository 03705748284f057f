import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTRPCClient, httpLink, type TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/router/app-router.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';
import { fakePlatforms, type FakePlatforms } from '../support/fake-platforms.js';

/** Issue 16 item 2: a caller's cap on a call's cost, refused free before any platform is asked. */
let app: TestApp;
let fake: FakePlatforms;
beforeAll(async () => {
  fake = fakePlatforms();
  app = await startTestApp({ platforms: { live: fake.adapters } });
});
beforeEach(() => fake.reset());
afterAll(() => app.close());

describe('maxCredits', () => {
  it('refuses over REST with 402 max_credits_exceeded naming the worst case, before any upstream call', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    const before = fake.calls();
    // Two platforms at 5 credits each: worst case 10.
    const err = await expectError(await app.get('/v1/search?location=Lisbon&platforms=airbnb,vrbo&maxCredits=9', key), 402, 'max_credits_exceeded');
    expect(err.param).toBe('maxCredits');
    expect(err.message).toContain('up to 10 credits');
    expect(fake.calls()).toBe(before);
    expect(await app.balanceOf(accountId)).toBe(100);

    const post = await fetch(`${app.baseUrl}/v1/search`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ location: 'Lisbon', platforms: ['airbnb'], maxCredits: 4 }),
    });
    await expectError(post, 402, 'max_credits_exceeded');
    await expectError(await app.get('/v1/listing/airbnb/40000012?maxCredits=0', key), 402, 'max_credits_exceeded');
    expect(fake.calls()).toBe(before);
  });

  it('lets a call within the cap through and never charges more than it', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    const res = await app.get('/v1/search?location=Lisbon&platforms=airbnb,vrbo&maxCredits=10', key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { meta: { creditsCharged: number } };
    expect(body.meta.creditsCharged).toBeGreaterThan(0);
    expect(body.meta.creditsCharged).toBeLessThanOrEqual(10);
    expect(await app.balanceOf(accountId)).toBe(100 - body.meta.creditsCharged);
  });

  it('is checked before the balance: a cap below the worst case wins over a low balance', async () => {
    const { key } = await app.newKey('live', { credits: 1 });
    await expectError(await app.get('/v1/search?location=Lisbon&platforms=airbnb&maxCredits=2', key), 402, 'max_credits_exceeded');
    await expectError(await app.get('/v1/search?location=Lisbon&platforms=airbnb&maxCredits=5', key), 402, 'credit_balance_too_low');
  });

  it('rejects a malformed cap with a 400 naming it', async () => {
    const { key } = await app.newKey('live', { credits: 100 });
    const err = await expectError(await app.get('/v1/search?location=Lisbon&maxCredits=-1', key), 400, 'invalid_request');
    expect(err.param).toBe('maxCredits');
  });

  it('is honoured by the MCP tools and the tRPC face alike', async () => {
    const { key, accountId } = await app.newKey('live', { credits: 100 });
    const before = fake.calls();
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const { tools } = await client.listTools();
    for (const tool of tools.filter((t) => t.name !== 'get_job')) {
      expect(Object.keys(tool.inputSchema.properties ?? {})).toContain('maxCredits');
      // The cap is described on the parameter itself; what holds for every tool is said once, in the server's instructions.
      expect((tool.inputSchema.properties as Record<string, { description?: string }>).maxCredits?.description).toMatch(/402 max_credits_exceeded/);
    }
    expect(client.getInstructions()).toMatch(/maxCredits/);
    const result = (await client.callTool({ name: 'get_reviews', arguments: { platform: 'airbnb', listingId: '40000012', limit: 40, maxCredits: 3 } })) as {
      isError?: boolean;
      structuredContent?: { error?: { code: string } };
      content: { text: string }[];
    };
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).toContain('max_credits_exceeded');
    await client.close();

    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: `Bearer ${key}` } })] });
    const err = (await trpc.price.query({ platform: 'vrbo', listingId: '6000003', checkIn: '2030-03-01', checkOut: '2030-03-04', maxCredits: 0 }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    const data = err.data as unknown as { httpStatus: number; apiError: { error: { code: string } } };
    expect([data.httpStatus, data.apiError.error.code]).toEqual([402, 'max_credits_exceeded']);
    expect(fake.calls()).toBe(before);
    expect(await app.balanceOf(accountId)).toBe(100);
  });
});
