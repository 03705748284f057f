import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/domain/errors.js';
import type { RateLimiter } from '../../src/domain/ports/rate-limits.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The REST status of a failure is its ServiceError's own, read from the error table with nothing
 * in between: a status no other table knows (410, 451) is answered as itself, never as a 500.
 * The errors are raised by the rate limiter, the first port a call meets after authentication.
 */
class AnswersWith extends ServiceError {
  constructor(private readonly answered: number) {
    super('permission_denied', `answered with ${answered}`);
  }
  override get status(): number {
    return this.answered;
  }
}

let next: number;
const limiter: RateLimiter = {
  async take() {
    throw new AnswersWith(next);
  },
};

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ limiter });
  ({ key } = await app.newKey('sandbox'));
});
afterAll(() => app?.close());

describe('REST error status', () => {
  it.each([410, 451, 402])('answers %i when the ServiceError says so, with the error body built once', async (status) => {
    next = status;
    const res = await app.get('/v1/search?location=Lisbon', key);
    expect(res.status).toBe(status);
    const requestId = res.headers.get('x-request-id');
    const body = (await res.json()) as { error: { code: string; message: string; requestId: string; docUrl: string } };
    expect(body.error).toMatchObject({ code: 'permission_denied', message: `answered with ${status}`, requestId });
    expect(body.error.docUrl).toBe(`${app.baseUrl}/docs/errors#permission_denied`);
  });
});
