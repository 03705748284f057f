import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { startHoldOwner } from '../../src/adapters/postgres/billing/hold-owner.js';
import type { Db } from '../../src/adapters/postgres/db.js';

/**
 * A process whose heartbeat stalls or fails is judged dead by the others after the window, so its
 * new holds must not carry its id (they would be released under a live call): they carry none,
 * and only their expiry ends them, until its beats come back.
 */
const timing = { heartbeatMs: 20, staleAfterMs: 100 };
const log = pino({ level: 'silent' });

describe('HoldOwner.holdId', () => {
  it('is the process id while beats succeed, null once the last one is older than half the window, and the id again when they return', async () => {
    let up = true;
    const db = { execute: async () => (up ? { rows: [{ released: 0 }] } : Promise.reject(new Error('database down'))) } as unknown as Db;
    const owner = startHoldOwner(db, 'proc_TEST', timing, log);
    await owner.beat();
    expect(owner.holdId()).toBe('proc_TEST');
    up = false;
    await new Promise((r) => setTimeout(r, timing.staleAfterMs));
    expect(owner.holdId()).toBeNull();
    up = true;
    await owner.beat();
    expect(owner.holdId()).toBe('proc_TEST');
    await owner.close();
  });

  it('is null before the first beat has answered', () => {
    const db = { execute: () => new Promise(() => {}) } as unknown as Db;
    const owner = startHoldOwner(db, 'proc_HUNG', timing, log);
    expect(owner.holdId()).toBeNull();
    void owner.close();
  });
});
