/** The time, injected (conventions rule 6): the system clock in production, a fake one in tests. */
export interface Clock {
  now(): Date;
}

/** Ids as this service makes them (req_, job_ and the accounts' and keys' own), injected like the clock. */
export interface IdGenerator {
  requestId(): string;
  jobId(): string;
  accountId(): string;
  keyId(): string;
  /** This process, as the owner of the credit holds its calls take (issue 35): one per process start. */
  processId(): string;
}
