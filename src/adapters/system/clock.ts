import type { Clock } from '../../domain/ports/system.js';

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand (conventions rule 6). */
export class FakeClock implements Clock {
  private ms: number;
  constructor(start: Date | string = '2027-01-15T12:00:00Z') {
    this.ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
