import type { LedgerEntry } from './service-ports.js';
import type { LegStatus } from '../model/common.js';
import type { Platform } from '../platforms.js';

/** A response kept for replay: status, the headers that belong to it, and the JSON body. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type ClaimOutcome =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; answer: StoredAnswer }
  | { outcome: 'in_use' }
  | { outcome: 'reused' };

export interface IdempotencyClaimRequest {
  accountId: string;
  key: string;
  /** Hash of what makes two requests "the same request". */
  fingerprint: string;
  requestId: string;
  now: Date;
  expiresAt: Date;
  /** A `running` claim older than this was left by a process that died: it may be taken over. */
  staleBefore: Date;
}

/** Idempotency-Key storage (per account, 24 h). */
export interface IdempotencyStore {
  claim(request: IdempotencyClaimRequest): Promise<ClaimOutcome>;
  /**
   * Stores the answer and posts its charge (if any) in ONE transaction, so a crash never leaves
   * one without the other. `lost`: the claim is no longer this request's (taken over as stale).
   */
  complete(claim: { accountId: string; key: string; requestId: string }, answer: StoredAnswer, charge: LedgerEntry | null): Promise<'stored' | 'unaffordable' | 'duplicate' | 'lost'>;
  /** Frees a key whose request ended without an answer worth keeping (an error): a retry runs again. */
  release(claim: { accountId: string; key: string; requestId: string }): Promise<void>;
  deleteExpired(now: Date): Promise<number>;
}

/** A platform leg a job's worker finished: `done` legs of this run so far, this one included, of `of` in its fan-out. */
export interface JobLegEvent {
  platform: Platform;
  status: LegStatus;
  cached: boolean;
  count: number;
  done: number;
  of: number;
}

/** Wakes long polls when a job ends, in whichever process ended it, and tells them of each leg it finishes. */
export interface JobEvents {
  /**
   * Resolves once listening; then `done(ms)` resolves true when the job ended, false on timeout.
   * `onLeg` hears the job's legs that finish while listening (not earlier ones: `done` counts them).
   */
  listen(jobId: string, onLeg?: (leg: JobLegEvent) => void): Promise<{ done(timeoutMs: number): Promise<boolean>; cancel(): void }>;
  /** Announces a finished leg of a running job to every process; best effort, never throws. */
  publishLeg(jobId: string, leg: JobLegEvent): Promise<void>;
  close(): Promise<void>;
}

export type WebhookStatus = 'waiting' | 'pending' | 'retrying' | 'delivered' | 'failed';

/** What GET /v1/jobs/{id} shows of a job's callback. */
export interface WebhookView {
  status: WebhookStatus;
  attempts: number;
  lastError: string | null;
}

export interface WebhookRecord extends WebhookView {
  id: number;
  jobId: string;
  accountId: string;
  url: string;
}

/** Job webhooks and the per-account signing secrets. */
export interface WebhookStore {
  /** Attaches a callback to a job; queued at once when the job has already ended. */
  register(jobId: string, accountId: string, url: string): Promise<void>;
  viewOf(jobId: string): Promise<WebhookView | null>;
  find(id: number): Promise<WebhookRecord | null>;
  /** Records an attempt; with `retryAt` the next attempt is queued in the same transaction. */
  recordAttempt(id: number, attempt: { status: WebhookStatus; attempts: number; lastError: string | null; now: Date; retryAt: Date | null }): Promise<void>;
  /** The account's secret, created on first use. */
  secretOf(accountId: string): Promise<string>;
  /** Secrets to sign with now: the current one, and the previous one for a day after a rotation. */
  signingSecrets(accountId: string, now: Date): Promise<string[]>;
  /** A new secret; the old one keeps signing (beside it) for 24 h. */
  rotate(accountId: string, now: Date): Promise<{ secret: string; previousSignsUntil: Date | null }>;
}

/** Where job webhooks may go, and the delivery itself (the one URL the service fetches). */
export interface CallbackTargets {
  /** Checks a callbackUrl when it is given (a 400 naming it when refused); returns it normalised. */
  check(raw: unknown): Promise<string>;
  /** One signed POST, to an address checked again just before it. */
  deliver(url: string, body: string, headers: Record<string, string>): Promise<{ ok: boolean; status: number | null; error: string | null }>;
}
