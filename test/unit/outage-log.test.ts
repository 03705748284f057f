import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/adapters/system/clock.js';
import { createOutageLog } from '../../src/adapters/system/outage-log.js';

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
    outage.succeeded();
    outage.succeeded();
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatchObject({ msg: 'cache (Redis) available again', failures: 1_500 });
    outage.failed(new Error('again'));
    expect(lines.at(-1)!.msg).toBe('cache (Redis) unavailable: every lookup is a miss');
  });
});
