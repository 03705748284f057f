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
