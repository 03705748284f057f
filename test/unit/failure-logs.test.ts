import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { withoutQueries } from '../../src/adapters/jobs/runner.js';
import { describeFailure, isDependencyUnavailable, queryName } from '../../src/router/dependency-errors.js';

const HASH = 'a'.repeat(64);

describe('what failure logs may say', () => {
  it('names a failed query by verb and table, with the error class and code, never its text or parameters', () => {
    const driver = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const err = new DrizzleQueryError('select "id", "account_id" from "api_keys" where "api_keys"."key_hash" = $1', [HASH], driver);
    const described = describeFailure(err);
    expect(described).toEqual({ errorClass: 'DrizzleQueryError', query: 'select api_keys', cause: 'Error', code: 'ECONNREFUSED' });
    expect(JSON.stringify(described)).not.toContain(HASH);
    expect(isDependencyUnavailable(err)).toBe(true);
  });

  it('tells outages from bugs', () => {
    expect(isDependencyUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDependencyUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDependencyUnavailable(Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }))).toBe(true);
    expect(isDependencyUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isDependencyUnavailable(new TypeError('x is undefined'))).toBe(false);
  });

  it('names queries', () => {
    expect(queryName('update "accounts" set "credit_balance" = $1')).toBe('update accounts');
    expect(queryName('insert into "async_jobs" ("id") values ($1)')).toBe('insert async_jobs');
    expect(queryName('\n      with dup as (select 1 from credit_ledger where entry_key = $1)')).toBe('with credit_ledger');
  });

  it('withholds queries quoted in the job queue\'s messages', () => {
    const message = `Failed task run_operation (worker-1) with error Failed query: select * from api_keys where key_hash = $1\nparams: ${HASH}\n    at x (y.js:1:1)`;
    expect(withoutQueries(message)).toBe('Failed task run_operation (worker-1) with error Failed query (text and parameters withheld)\n    at x (y.js:1:1)');
  });
});
