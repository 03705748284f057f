import { describe, expect, it } from 'vitest';
import type { Logger } from 'pino';
import type { Db } from '../../src/adapters/postgres/db.js';
import { createKeyLastUse } from '../../src/adapters/postgres/accounts/key-last-use.js';

/** A stand-in for drizzle's update builder: records each write, fails it when told to. */
function fakeDb(fail = false) {
  const writes: { at: Date }[] = [];
  const db = {
    update: () => ({
      set: (values: { lastUsedAt: Date }) => ({
        where: () => {
          writes.push({ at: values.lastUsedAt });
          return fail ? Promise.reject(new Error('connection refused')) : Promise.resolve();
        },
      }),
    }),
  };
  return { db: db as unknown as Db, writes };
}

function fakeClock(start = Date.UTC(2031, 0, 1)) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

const quietLog = (warnings: unknown[] = []) => ({ warn: (obj: unknown) => warnings.push(obj) }) as unknown as Logger;

describe('key last use', () => {
  it('writes a key at most once a minute per process, each key on its own', () => {
    const { db, writes } = fakeDb();
    const clock = fakeClock();
    const uses = createKeyLastUse(db, clock, quietLog());
    uses.touch('key_a');
    uses.touch('key_a');
    clock.advance(59_999);
    uses.touch('key_a');
    uses.touch('key_b');
    expect(writes).toHaveLength(2);
    clock.advance(1);
    uses.touch('key_a');
    expect(writes).toHaveLength(3);
    expect(writes[2]!.at.getTime()).toBe(clock.now().getTime());
  });

  it('never throws or waits when the write fails: the failure is logged', async () => {
    const { db, writes } = fakeDb(true);
    const warnings: unknown[] = [];
    const uses = createKeyLastUse(db, fakeClock(), quietLog(warnings));
    expect(uses.touch('key_a')).toBeUndefined();
    expect(writes).toHaveLength(1);
    await new Promise((r) => setImmediate(r));
    expect(warnings).toEqual([expect.objectContaining({ keyId: 'key_a', err: 'connection refused' })]);
  });
});
