import { sha256Text, stableJson } from '../operations/cursor.js';
import type { KeyEnv } from '../accounts/plans.js';

/**
 * Cache namespaces and their TTLs in one place (spec 8.2, design.md section 3; conventions rule 13).
 * Keys are built from the normalised leg request, never concatenated at call sites.
 */
export const CACHE_TTL_MS = {
  search: 30 * 60_000,
  price: 60 * 60_000,
  priceCompare: 60 * 60_000,
  listing: 24 * 60 * 60_000,
  reviews: 24 * 60 * 60_000,
  availability: 15 * 60_000,
} as const;
export type CacheNamespace = keyof typeof CACHE_TTL_MS;

/** Bump when the shape of cached values changes, so old entries are simply never read again. */
const CACHE_VERSION = 1;

export interface CacheSlot {
  key: string;
  ttlMs: number;
}

/** The slot of one leg: sandbox and live data never share keys; key order in `parts` is irrelevant. */
export function cacheSlot(env: KeyEnv, ns: CacheNamespace, parts: unknown): CacheSlot {
  const digest = sha256Text(stableJson(parts)).slice(0, 32);
  return { key: `ads:v${CACHE_VERSION}:${env}:${ns}:${digest}`, ttlMs: CACHE_TTL_MS[ns] };
}
