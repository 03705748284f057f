import type { LedgerEntry } from './billing.js';

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
