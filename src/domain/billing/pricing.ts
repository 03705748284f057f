import type { Operation, Platform } from '../platforms.js';
import type { KeyEnv } from '../accounts/plans.js';

/**
 * Credit schedules (spec section 4, design.md section 3) as pure functions of the call and its
 * leg results. `reference` is the default; `summary` is the machine-readable summary's figures.
 */
export const CREDIT_SCHEDULES = ['reference', 'summary'] as const;
export type CreditSchedule = (typeof CREDIT_SCHEDULES)[number];

/** What one leg produced, as far as billing cares. */
export interface BillableLeg {
  platform: Platform;
  /** Only `ok` legs are billable. */
  ok: boolean;
  /** Items returned: properties, reviews, listing-windows, offers. */
  count: number;
  /** Days in the requested window (availability, summary schedule). */
  days?: number;
}

const SUMMARY_SEARCH_RATE: Partial<Record<Platform, number>> = { airbnb: 2, booking: 1, vrbo: 1 };
const SUMMARY_REVIEW_RATE: Partial<Record<Platform, number>> = { airbnb: 5, booking: 1, vrbo: 1 };

function referenceCost(op: Operation, leg: BillableLeg): number {
  switch (op) {
    case 'search': return 5;
    case 'availability': return 3 * leg.count;
    case 'listing': return 1;
    case 'price': return 1;
    case 'priceCompare': return 5;
    case 'reviews': return 2 * Math.ceil(leg.count / 20);
    default: return exhaustive(op);
  }
}

function summaryCost(op: Operation, leg: BillableLeg): number {
  switch (op) {
    case 'search':
      return leg.platform === 'google' ? 15 : Math.max(5, (SUMMARY_SEARCH_RATE[leg.platform] ?? 1) * leg.count);
    case 'availability':
      return leg.count * Math.max(5, Math.ceil((leg.days ?? 0) / 2));
    case 'listing': return 3;
    case 'price': return 3;
    case 'priceCompare': return 22;
    case 'reviews': return Math.max(5, (SUMMARY_REVIEW_RATE[leg.platform] ?? 1) * leg.count);
    default: return exhaustive(op);
  }
}

function exhaustive(op: never): never {
  throw new Error(`no price for operation ${String(op)}`);
}

/** Credits for one leg: 0 unless the leg is ok with at least one item, and always 0 for sandbox keys. */
export function legCredits(schedule: CreditSchedule, env: KeyEnv, op: Operation, leg: BillableLeg): number {
  if (env === 'sandbox' || !leg.ok || leg.count < 1) return 0;
  return schedule === 'reference' ? referenceCost(op, leg) : summaryCost(op, leg);
}

/** The most a call can cost, from its shape alone: checked against the balance before any upstream work (402). */
export interface CallShape {
  /** Platforms the call fans out to (search), or the one platform. */
  platforms: Platform[];
  /** Most items a leg can bill for: search/reviews limit, availability listings, 1 otherwise. */
  maxItems: number;
  days?: number;
}

export function maxCredits(schedule: CreditSchedule, env: KeyEnv, op: Operation, shape: CallShape): number {
  return shape.platforms.reduce(
    (sum, platform) => sum + legCredits(schedule, env, op, { platform, ok: true, count: Math.max(1, shape.maxItems), days: shape.days }),
    0,
  );
}
