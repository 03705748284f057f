import { monotonicFactory } from 'ulid';
import type { IdGenerator } from '../../domain/service-ports.js';

/** Prefixed ULIDs: sortable by time, and the prefix says what an id names. */
export function createIds(): IdGenerator {
  const ulid = monotonicFactory();
  return {
    requestId: () => `req_${ulid()}`,
    jobId: () => `job_${ulid()}`,
    accountId: () => `acct_${ulid()}`,
    keyId: () => `key_${ulid()}`,
  };
}
