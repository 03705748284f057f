import type { KeyEnv, PlanCode } from '../accounts/plans.js';

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
  /** The principal of a key by id, revoked or not: a job accepted for a key runs to its end. */
  findById(keyId: string): Promise<Principal | null>;
  /** The principal of an account signed in through OAuth (MCP), with the key kind chosen at consent. */
  forAccount(accountId: string, via: string, env: KeyEnv): Promise<Principal | null>;
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
  /** A billed call's platforms and each one's credits, in one order (the console's split by platform). */
  platforms?: { platform: string; credits: number }[];
  /** A billed call's outcome: 'partial' when a platform failed (and was not billed). */
  status?: 'complete' | 'partial';
  keyId?: string;
}

export interface Ledger {
  /** Applies the entry and moves the balance in one transaction; null when a debit would overdraw. */
  post(entry: LedgerEntry): Promise<{ balance: number; duplicate: boolean } | null>;
}

/** Records that a key was used; never throws, never waits (the console's "last use"). */
export interface KeyUse {
  touch(keyId: string): void;
}

export interface IdGenerator {
  requestId(): string;
  jobId(): string;
  accountId(): string;
  keyId(): string;
}

/** A job as the service sees it (spec 2.9); `result` is the envelope the synchronous call returns. */
export interface JobRecord {
  id: string;
  accountId: string;
  keyId: string;
  keyEnv: KeyEnv;
  procedure: string;
  input: unknown;
  platforms: string[];
  status: 'pending' | 'running' | 'completed' | 'failed';
  estimatedSeconds: number;
  result: { data: unknown; meta: Record<string, unknown> } | null;
  creditsCharged: number;
  error: Record<string, unknown> | null;
  createdAt: Date;
  startedAt: Date | null;
  /** When it completed or failed; null while in flight. */
  finishedAt: Date | null;
  expiresAt: Date;
}

/** What accepting a call as a job records; the rest of a JobRecord starts empty. */
export type NewJob = Pick<JobRecord, 'id' | 'accountId' | 'keyId' | 'keyEnv' | 'procedure' | 'input' | 'platforms' | 'estimatedSeconds' | 'expiresAt'> & {
  /** Identical in-flight calls of one account share the job with this key. */
  dedupKey: string;
  now: Date;
};

/** Async jobs (spec 4.9): the row and the queue entry are written in one transaction. */
export interface JobStore {
  /** Enqueues, or returns the account's in-flight job for the same call (`created` false). */
  enqueue(job: NewJob): Promise<{ job: JobRecord; created: boolean }>;
  /**
   * The owner's job, unless unknown, another account's, made with the other key kind (a sandbox
   * key never reads live results, nor the reverse), or expired at `now`.
   */
  find(id: string, owner: { accountId: string; keyEnv: KeyEnv }, now: Date): Promise<JobRecord | null>;
  /** Marks a job running; null when it is already completed or failed (nothing to do). */
  start(id: string, now: Date): Promise<JobRecord | null>;
  /** Result and the `job:<id>` ledger row in one transaction: a re-run is billed at most once. */
  complete(id: string, outcome: { credits: number; result: { data: unknown; meta: Record<string, unknown> }; billed?: { operation: string; platforms: { platform: string; credits: number }[]; status: 'complete' | 'partial' }; now: Date }): Promise<'completed' | 'unaffordable' | 'already_done'>;
  fail(id: string, error: Record<string, unknown>, now: Date): Promise<void>;
  /** Keeps an attempt's retryable error on a job still in flight: the error it ends with if the queue gives up. */
  noteFailure(id: string, error: Record<string, unknown>): Promise<void>;
  /** Fails a job the queue gave up on (attempts spent by crashes): its last noted error, else `fallback`; 0 credits. */
  abandon(id: string, fallback: Record<string, unknown>, now: Date): Promise<boolean>;
  /** Deletes jobs past their retention; returns how many. */
  deleteExpired(now: Date): Promise<number>;
}
