/**
 * Sandbox calls counted for the developer console (issue 22): the ledger holds billed calls only,
 * so without this a sandbox-only account sees nothing of its free calls.
 */
export interface SandboxCallCounter {
  /** One sandbox call that delivered an answer, counted on `at`'s UTC day. Never waits, never fails the call. */
  record(accountId: string, at: Date): void;
  /** Writes the counts not yet written, in one statement; kept for the next flush when it fails. */
  flush(): Promise<void>;
  /** Stops the periodic flush and flushes a last time (graceful shutdown). */
  close(): Promise<void>;
}
