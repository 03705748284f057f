import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/router/app-router.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { REQUEST_ID } from '../support/common-rules.js';

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await app.newKey('sandbox')).key;
});
afterAll(() => app.close());

function client(authorization: string) {
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: authorization } })] });
}

describe('internal tRPC face, as a dashboard calls it', () => {
  it('returns exactly what REST returns for the same input', async () => {
    const viaTrpc = await client(`Bearer ${key}`).search.query({ location: 'Lisbon', platforms: ['airbnb', 'vrbo'], limit: 5 });
    if (viaTrpc.kind !== 'result') throw new Error('expected a result');
    const viaRest = await (await app.get('/v1/search?location=Lisbon&platforms=airbnb,vrbo&limit=5', key)).json();
    expect(viaTrpc.data).toEqual(viaRest.data);
    expect(viaTrpc.meta.requestId).toMatch(REQUEST_ID);
    expect(viaTrpc.meta.requestId).not.toBe(viaRest.meta.requestId);
    const account = await client(`Bearer ${key}`).account.query();
    expect(account.data.key.env).toBe('sandbox');
  });

  it('carries the spec error body on failures', async () => {
    const err = await client(`Bearer ${key}`).search.query({ location: 'Lisbon', limit: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    const apiError = (err as TRPCClientError<AppRouter>).data as unknown as { httpStatus: number; apiError: { error: { code: string; param: string } } };
    expect(apiError.httpStatus).toBe(400);
    expect(apiError.apiError.error).toMatchObject({ code: 'limit_out_of_range', param: 'limit' });
    const unauth = await client('Bearer nope').account.query().catch((e: unknown) => e);
    expect((unauth as TRPCClientError<AppRouter>).data?.httpStatus).toBe(401);
  });

  it('answers GET queries the adapter treats specially as the adapter does, on the direct path too', async () => {
    const plain = await app.get('/trpc/account', key);
    expect(plain.status).toBe(200);
    const special: Record<string, string>[] = [{ Accept: 'application/jsonl' }, { 'Content-Type': 'multipart/form-data; boundary=x' }, { 'trpc-accept': 'application/jsonl' }];
    for (const headers of special) {
      const res = await app.get('/trpc/account', key, headers);
      expect(res.status, JSON.stringify(headers)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(headers)).toBeLessThan(500);
    }
  });
});
