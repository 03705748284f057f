import { expect } from 'vitest';
import type { TestApp } from './app.js';

export const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;

interface ErrorBodyShape {
  error: { code: string; subCode?: string; message: string; param?: string; requestId: string; retryable: boolean; docUrl: string };
}

/** Asserts the error body of design.md section 3 and its headers; returns the body. */
export async function expectError(res: Response, status: number, code: string): Promise<ErrorBodyShape['error']> {
  const body = (await res.json()) as ErrorBodyShape;
  expect({ status: res.status, code: body.error?.code }).toEqual({ status, code });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toMatch(REQUEST_ID);
  expect(body.error.requestId).toBe(requestId);
  expect(typeof body.error.message).toBe('string');
  expect(typeof body.error.retryable).toBe('boolean');
  // Each code and sub-code has its own catalogue entry.
  expect(body.error.docUrl.endsWith(`/docs/errors#${body.error.subCode ? `${code}.${body.error.subCode}` : code}`)).toBe(true);
  expect(Object.keys(body)).toEqual(['error']);
  return body.error;
}

/**
 * The cross-cutting rules every endpoint obeys (conventions rule 15): identical 401 for missing,
 * malformed, unknown and revoked keys, with rate-limit headers; a request id on success that
 * matches meta; and no credits for a sandbox call.
 */
export async function expectCommonRules(app: TestApp, path: string, expectedStatus = 200): Promise<void> {
  const { key, keyId } = await app.newKey('sandbox');
  const revoked = await app.newKey('sandbox');
  await app.deps.admin.revokeKey(revoked.keyId);

  const unauth = await Promise.all([
    app.get(path),
    app.get(path, 'not-a-key'),
    app.get(path, `svc_test_${'A'.repeat(43)}`),
    app.get(path, revoked.key),
    app.get(path, undefined, { Authorization: 'Basic Zm9vOmJhcg==' }),
  ]);
  const bodies: string[] = [];
  for (const res of unauth) {
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    const err = await expectError(res.clone(), 401, 'unauthenticated');
    bodies.push(JSON.stringify({ ...err, requestId: 'x' }));
  }
  expect(new Set(bodies).size).toBe(1);

  const ok = await app.get(path, key);
  expect(ok.status).toBe(expectedStatus);
  const requestId = ok.headers.get('x-request-id');
  expect(requestId).toMatch(REQUEST_ID);
  expect(ok.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(Number(ok.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
  const body = (await ok.json()) as { data: unknown; meta?: { requestId: string; creditsCharged: number } };
  if (expectedStatus === 200 && body.meta) {
    expect(body.meta.requestId).toBe(requestId);
    expect(body.meta.creditsCharged).toBe(0);
  } else if (expectedStatus >= 400) {
    expect((body as unknown as ErrorBodyShape).error.requestId).toBe(requestId);
  }
  expect(keyId).toMatch(/^key_/);
}
