import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/adapters/system/clock.js';
import { createOutageLog, OUTAGE_SETTLE_MS } from '../../src/adapters/system/outage-log.js';

describe('outage log', () => {
  it('logs a loss once when it starts, once a minute while it lasts, and once when it ends', () => {
    const lines: { msg: string; failures?: number }[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l) as { msg: string }) });
    const clock = new FakeClock();
    const outage = createOutageLog(log, clock, 'cache (Redis)', 'every lookup is a miss');
    outage.succeeded();
    expect(lines).toEqual([]);
    // 10 failures a second for 150 s
    for (let i = 0; i < 1_500; i++) {
      outage.failed(new Error('Connection is closed.'));
      clock.advance(100);
    }
    expect(lines.map((l) => l.msg)).toEqual([
      'cache (Redis) unavailable: every lookup is a miss',
      'cache (Redis) still unavailable: every lookup is a miss',
      'cache (Redis) still unavailable: every lookup is a miss',
    ]);
    outage.succeeded(); // 100 ms after the last failure: not over yet
    expect(lines).toHaveLength(3);
    clock.advance(OUTAGE_SETTLE_MS);
    outage.succeeded();
    outage.succeeded();
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatchObject({ msg: 'cache (Redis) available again', failures: 1_500, downForMs: 149_900 });
    outage.failed(new Error('again'));
    expect(lines.at(-1)!.msg).toBe('cache (Redis) unavailable: every lookup is a miss');
  });

  it('logs a partial outage (one Redis Cluster master of three down) as one, not once per failed operation', () => {
    const lines: { msg: string; failures?: number }[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l) as { msg: string }) });
    const clock = new FakeClock();
    const outage = createOutageLog(log, clock, 'rate limiter (Redis)', 'using in-process buckets');
    // 15 s of failover at 30 operations a second, every third one on the lost master's slots
    for (let i = 0; i < 450; i++) {
      if (i % 3 === 0) outage.failed(new Error('Connection is closed.'));
      else outage.succeeded();
      clock.advance(33);
    }
    for (let i = 0; i < 90; i++) {
      outage.succeeded();
      clock.advance(33);
    }
    expect(lines.map((l) => l.msg)).toEqual(['rate limiter (Redis) unavailable: using in-process buckets', 'rate limiter (Redis) available again']);
    expect(lines[1]).toMatchObject({ failures: 150 });
  });
});
