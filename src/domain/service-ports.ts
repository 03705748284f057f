import type { KeyEnv, PlanCode } from './plans.js';

/** Who is calling: the key's account as read at authentication time (spec 2.8). */
export interface Principal {
  accountId: string;
  keyId: string;
  keyPrefix: string;
  env: KeyEnv;
  plan: PlanCode;
  subscriptionStatus: string;
  emailVerified: boolean;
  balance: number;
  rateLimitOverride: number | null;
}

export interface KeyStore {
  /** The principal of an active (not revoked) key with this SHA-256 hex hash, or null. */
  findByHash(keyHash: string): Promise<Principal | null>;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the bucket is full again (epoch ms). */
  resetAtMs: number;
  /** How long until one token is available (ms); 0 when allowed. */
  retryAfterMs: number;
}

/** A token bucket per key: `capacity` tokens, refilled evenly over a minute (spec 8.1). */
export interface RateLimiter {
  take(bucket: string, capacity: number): Promise<RateDecision>;
}

export interface Cache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

export interface LedgerEntry {
  accountId: string;
  /** Unique per billed event (`req:<requestId>`, `job:<jobId>`, `grant:<id>`): a retry cannot charge twice. */
  entryKey: string;
  /** Negative for a debit, positive for a grant. */
  amount: number;
  reason: string;
}

export interface Ledger {
  /** Applies the entry and moves the balance in one transaction; null when a debit would overdraw. */
  post(entry: LedgerEntry): Promise<{ balance: number; duplicate: boolean } | null>;
}

export interface IdGenerator {
  requestId(): string;
  jobId(): string;
  accountId(): string;
  keyId(): string;
}
