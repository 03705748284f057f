import type { Platform } from '../platforms.js';

/**
 * How each platform honours a search's `radiusKm` or `bbox` (issue 25 item 1), the one
 * declaration the adapters, the sandbox and the documentation read:
 * - `upstream`: the platform is asked for the area itself;
 * - `after_retrieval`: the platform searches its own area around the location, and its parsed
 *   results are filtered here by their coordinates (a `filter_applied_after_retrieval` warning);
 * - `unsupported`: its search results carry no coordinates, so the leg returns nothing for an
 *   area, with a `filter_not_supported` warning, rather than unfiltered results.
 * No recorded answer of any platform shows an area search upstream, so none is `upstream` yet.
 */
export const GEO_FILTERING: Readonly<Record<Platform, 'upstream' | 'after_retrieval' | 'unsupported'>> = {
  airbnb: 'after_retrieval',
  booking: 'unsupported',
  vrbo: 'after_retrieval',
  google: 'after_retrieval',
  expedia: 'after_retrieval',
  hotels: 'after_retrieval',
  tripadvisor: 'after_retrieval',
};
