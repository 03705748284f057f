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

/** The reference schedule's figures; the cost functions and the sentences that state them read these. */
const REFERENCE = { search: 5, availability: 3, listing: 1, price: 1, priceCompare: 5, reviews: { credits: 2, block: 20 } } as const;
/** The summary schedule's figures. */
const SUMMARY = {
  search: { google: 15, perItem: { airbnb: 2, booking: 1, vrbo: 1 } as Partial<Record<Platform, number>>, minimum: 5 },
  availability: { minimum: 5, daysPerCredit: 2 },
  listing: 3,
  price: 3,
  priceCompare: 22,
  reviews: { perItem: { airbnb: 5, booking: 1, vrbo: 1 } as Partial<Record<Platform, number>>, minimum: 5 },
} as const;

function referenceCost(op: Operation, leg: BillableLeg): number {
  switch (op) {
    case 'search': return REFERENCE.search;
    case 'availability': return REFERENCE.availability * leg.count;
    case 'listing': return REFERENCE.listing;
    case 'price': return REFERENCE.price;
    case 'priceCompare': return REFERENCE.priceCompare;
    case 'reviews': return REFERENCE.reviews.credits * Math.ceil(leg.count / REFERENCE.reviews.block);
    default: return exhaustive(op);
  }
}

function summaryCost(op: Operation, leg: BillableLeg): number {
  switch (op) {
    case 'search':
      return leg.platform === 'google' ? SUMMARY.search.google : Math.max(SUMMARY.search.minimum, (SUMMARY.search.perItem[leg.platform] ?? 1) * leg.count);
    case 'availability':
      return leg.count * Math.max(SUMMARY.availability.minimum, Math.ceil((leg.days ?? 0) / SUMMARY.availability.daysPerCredit));
    case 'listing': return SUMMARY.listing;
    case 'price': return SUMMARY.price;
    case 'priceCompare': return SUMMARY.priceCompare;
    case 'reviews': return Math.max(SUMMARY.reviews.minimum, (SUMMARY.reviews.perItem[leg.platform] ?? 1) * leg.count);
    default: return exhaustive(op);
  }
}

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
const rates = (perItem: Partial<Record<Platform, number>>) =>
  Object.entries(perItem).map(([platform, n]) => `${credits(n!)} per item on ${platform}`).join(', ');

/**
 * The price of an operation as one sentence, from the same figures as the cost functions, so the
 * tool and operation descriptions are right under either schedule (issue 22 item 6).
 */
export function costSentence(schedule: CreditSchedule, op: Operation): string {
  const free = 'Failed, blocked and empty platforms are free; sandbox keys are free.';
  if (schedule === 'reference') {
    switch (op) {
      case 'search': return `Costs ${credits(REFERENCE.search)} per platform that returned items. ${free}`;
      case 'availability': return `Costs ${credits(REFERENCE.availability)} per listing-window returned.`;
      case 'listing': return `Costs ${credits(REFERENCE.listing)}.`;
      case 'price': return `Costs ${credits(REFERENCE.price)}.`;
      case 'priceCompare': return `Costs ${credits(REFERENCE.priceCompare)}.`;
      case 'reviews': return `Costs ${credits(REFERENCE.reviews.credits)} per started block of ${REFERENCE.reviews.block} reviews returned.`;
      default: return exhaustive(op);
    }
  }
  switch (op) {
    case 'search': return `Costs, per platform that returned items, ${credits(SUMMARY.search.google)} on google and ${rates(SUMMARY.search.perItem)} (at least ${SUMMARY.search.minimum}). ${free}`;
    case 'availability': return `Costs per listing-window returned one credit per ${SUMMARY.availability.daysPerCredit} days of the window, at least ${credits(SUMMARY.availability.minimum)}.`;
    case 'listing': return `Costs ${credits(SUMMARY.listing)}.`;
    case 'price': return `Costs ${credits(SUMMARY.price)}.`;
    case 'priceCompare': return `Costs ${credits(SUMMARY.priceCompare)}.`;
    case 'reviews': return `Costs ${rates(SUMMARY.reviews.perItem)} (at least ${credits(SUMMARY.reviews.minimum)}).`;
    default: return exhaustive(op);
  }
}

/** Where a description states its operation's price; replaced by costSentence when a document is built. */
export const COST_PLACEHOLDER = '{{cost}}';

/** A description with its price sentence for the schedule in force. */
export function withCostSentence(description: string, schedule: CreditSchedule, op: Operation): string {
  return description.replace(COST_PLACEHOLDER, costSentence(schedule, op));
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
