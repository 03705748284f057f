import type { Platform } from '../platforms.js';

/**
 * How each platform honours a search's `radiusKm` or `bbox` (issue 25 item 1), the one
 * declaration the adapters, the sandbox and the documentation read:
 * - `upstream`: the platform is asked for the area itself;
 * - `after_retrieval`: the platform searches its own area around the location, and its parsed
 *   results are filtered here by their coordinates (a `filter_applied_after_retrieval` warning).
 * The coordinates that filter are the ones `distanceKm` and `sort=distance_asc` measure, so an
 * item is never sorted by a distance yet dropped as unplaced (issue 34). A result without
 * coordinates cannot be shown inside the area: it is left out, and the leg says how many
 * (`filter_not_supported`, see LegGeo), rather than the whole platform being refused.
 * No recorded answer of any platform shows an area search upstream, so none is `upstream` yet.
 */
export const GEO_FILTERING: Readonly<Record<Platform, 'upstream' | 'after_retrieval'>> = {
  airbnb: 'after_retrieval',
  booking: 'after_retrieval',
  vrbo: 'after_retrieval',
  google: 'after_retrieval',
  expedia: 'after_retrieval',
  hotels: 'after_retrieval',
  tripadvisor: 'after_retrieval',
};
