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
  /** The credit hold this debit settles: deleted in the same statement that moves the balance. */
  holdId?: string;
}

export interface Ledger {
  /** Applies the entry and moves the balance in one transaction; null when a debit would overdraw. */
  post(entry: LedgerEntry): Promise<{ balance: number; duplicate: boolean } | null>;
  /**
   * Holds `amount` credits of the account's balance for a call about to ask platforms (issue 23),
   * when the balance not held by other calls covers it; false otherwise. One round trip. The hold
   * ends when a debit names it, when `release` is called, when the process that took it stops
   * beating its heartbeat (issue 35: a dead process's hold, released within seconds), or after
   * `ttlMs` at the latest.
   */
  reserve(accountId: string, holdId: string, amount: number, ttlMs: number): Promise<boolean>;
  release(holdId: string): Promise<void>;
}
