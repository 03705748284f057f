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
  /** The principal of a key by id, revoked or not, as stored now (GET /account reads its balance here). */
  findById(keyId: string): Promise<Principal | null>;
  /**
   * findById, possibly as read a moment ago (the key cache's TTL): for the job worker, which runs
   * a job accepted for a key to its end, revoked or not, and whose principal's balance is only the
   * 402 pre-check's estimate (every debit is guarded in the database).
   */
  findRecentById(keyId: string): Promise<Principal | null>;
  /** The principal of an account signed in through OAuth (MCP), with the key kind chosen at consent. */
  forAccount(accountId: string, via: string, env: KeyEnv): Promise<Principal | null>;
}

/** Records that a key was used; never throws, never waits (the console's "last use"). */
export interface KeyUse {
  touch(keyId: string): void;
}
