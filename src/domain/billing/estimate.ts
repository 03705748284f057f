import type { Operation, Platform } from '../platforms.js';
import type { KeyEnv } from '../accounts/plans.js';
import { legCredits, type CallShape, type CreditSchedule } from './pricing.js';

/** The state of a platform's breaker as the estimate reports it (absent for sandbox keys). */
export type EstimateBreaker = 'closed' | 'open' | 'half_open' | 'none';

/** One leg as the dry run finds it: its cached answer's item count, or null when it would be fetched. */
export interface PreviewLeg {
  platform: Platform;
  cachedCount: number | null;
}

export interface PlatformEstimate {
  platform: Platform;
  worstCaseCredits: number;
  likelyCredits: number;
  cached: boolean;
  breaker: EstimateBreaker;
}

export interface Estimate {
  dryRun: true;
  worstCaseCredits: number;
  likelyCredits: number;
  maxCredits: number | null;
  withinMaxCredits: boolean;
  platforms: PlatformEstimate[];
}

/** Thrown by a dry run at the point where the legs would start: the call stops there, free. */
export class DryRunStop extends Error {
  constructor(readonly estimate: Estimate) {
    super('dry run');
    this.name = 'DryRunStop';
  }
}

/**
 * Issue 16 item 2, pure: the worst case is the 402 check's figure (pricing.maxCredits per leg).
 * The likely cost is what the leg would bill as far as the service can know without asking: a
 * cached leg bills its cached count exactly, a leg behind an open breaker fails free, any other
 * leg is taken at its worst case (a live platform's count is unknown until it answers).
 */
export function estimateCall(
  schedule: CreditSchedule,
  env: KeyEnv,
  op: Operation,
  shape: CallShape,
  legs: PreviewLeg[],
  breaker: (platform: Platform) => EstimateBreaker,
  maxCredits: number | null,
): Estimate {
  const platforms = legs.map((leg): PlatformEstimate => {
    const worst = legCredits(schedule, env, op, { platform: leg.platform, ok: true, count: Math.max(1, shape.maxItems), days: shape.days });
    const state = breaker(leg.platform);
    const likely =
      leg.cachedCount !== null
        ? legCredits(schedule, env, op, { platform: leg.platform, ok: true, count: leg.cachedCount, days: shape.days })
        : state === 'open' ? 0 : worst;
    return { platform: leg.platform, worstCaseCredits: worst, likelyCredits: likely, cached: leg.cachedCount !== null, breaker: state };
  });
  const worstCaseCredits = platforms.reduce((s, p) => s + p.worstCaseCredits, 0);
  return {
    dryRun: true,
    worstCaseCredits,
    likelyCredits: platforms.reduce((s, p) => s + p.likelyCredits, 0),
    maxCredits,
    withinMaxCredits: maxCredits === null || worstCaseCredits <= maxCredits,
    platforms,
  };
}
