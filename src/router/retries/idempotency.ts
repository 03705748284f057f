import { createHash } from 'node:crypto';
import { stableJson } from '../../domain/operations/cursor.js';
import { ServiceError } from '../../domain/errors.js';
import type { StoredAnswer } from '../../domain/ports/retries.js';
import type { Principal } from '../../domain/ports/accounts.js';
import type { Context, Authed } from '../context.js';

/** Answers are kept for replay 24 h per account (issue 17, as Stripe does). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60_000;
/** 1 to 255 printable ASCII characters (the header is a string; anything else is refused). */
const KEY = /^[\x20-\x7e]{1,255}$/;


export function checkIdempotencyKey(raw: string): string {
  if (!KEY.test(raw)) {
    throw new ServiceError('invalid_request', 'Idempotency-Key must be 1 to 255 printable ASCII characters.', { param: 'Idempotency-Key', subCode: 'invalid_idempotency_key' });
  }
  return raw;
}

/**
 * "The same request": the same operation, key kind, validated input and callback. Two spellings
 * of one request (`a,b` or repeated keys, a default left out) are the same request.
 */
export function requestFingerprint(procedure: string, principal: Principal, input: unknown, callbackUrl: string | null): string {
  return createHash('sha256').update(stableJson({ procedure, env: principal.env, input: input ?? null, callbackUrl })).digest('base64url');
}

/**
 * A running claim older than this (IDEMPOTENCY_LEASE_MS) was left by a process that died or
 * froze mid-request, so a retry may take it over; the debit is fenced by the claim, so the first
 * request, should it wake, never charges (issue 23).
 */
function staleAfterMs(ctx: Context): number {
  return ctx.deps.config.idempotencyLeaseMs;
}

/**
 * Claims the key for this request, or returns the stored answer to replay. A key held by a
 * request still running is 409 (retryable); a key used for another request is 422.
 */
export async function claimIdempotencyKey(ctx: Authed, key: string, fingerprint: string): Promise<StoredAnswer | null> {
  const now = ctx.deps.clock.now();
  const claim = { accountId: ctx.principal.accountId, key, requestId: ctx.requestId };
  const outcome = await ctx.deps.idempotency.claim({
    ...claim,
    fingerprint,
    now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS),
    staleBefore: new Date(now.getTime() - staleAfterMs(ctx)),
  });
  switch (outcome.outcome) {
    case 'claimed':
      ctx.idempotency = { ...claim, stored: false };
      return null;
    case 'replay':
      return outcome.answer;
    case 'in_use':
      throw new ServiceError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running. Retry shortly to get its answer.', { param: 'Idempotency-Key', retryAfterSeconds: 1 });
    case 'reused':
      throw new ServiceError('idempotency_key_reused', 'This Idempotency-Key was used for a different request. Use a new key for a new request.', { param: 'Idempotency-Key' });
  }
}

/** Headers that belong to an answer (and so are replayed); rate-limit and request-id headers are per request. */
const KEPT_HEADERS = ['Retry-After'];

export function answerHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(KEPT_HEADERS.filter((h) => h in headers).map((h) => [h, headers[h]!]));
}

/**
 * After the request: an answer not stored with a charge (a 202 job handle) is stored now; an
 * error frees the key, since nothing was charged and a retry should run again.
 */
export async function finishIdempotent(ctx: Context, ok: boolean, body: unknown): Promise<void> {
  const claim = ctx.idempotency;
  if (!claim || claim.stored) return;
  if (!ok) return ctx.deps.idempotency.release(claim);
  const outcome = await ctx.deps.idempotency.complete(claim, { status: ctx.res.status ?? 200, headers: answerHeaders(ctx.res.headers), body }, null);
  claim.stored = outcome === 'stored';
}

/** Applies a stored answer to this response. */
export function replay(ctx: Context, answer: StoredAnswer): unknown {
  ctx.res.status = answer.status;
  Object.assign(ctx.res.headers, answer.headers, { 'Idempotent-Replayed': 'true' });
  ctx.res.creditsCharged = 0;
  return answer.body;
}
