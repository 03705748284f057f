/** Platform identifiers of spec section 1. expedia, hotels and tripadvisor are valid values that no adapter serves yet. */
export const PLATFORMS = ['airbnb', 'booking', 'vrbo', 'expedia', 'hotels', 'google', 'tripadvisor'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Operations an adapter can declare. */
export const OPERATIONS = ['search', 'availability', 'listing', 'price', 'priceCompare', 'reviews'] as const;
export type Operation = (typeof OPERATIONS)[number];

/**
 * The product's capability matrix (design.md section 3). Adapters declare what they serve; this
 * table is what the documentation promises and what the sandbox implements.
 */
export const CAPABILITIES: Readonly<Record<Operation, readonly Platform[]>> = {
  search: ['airbnb', 'booking', 'vrbo', 'google'],
  listing: ['airbnb', 'booking', 'vrbo', 'google'],
  price: ['airbnb', 'booking', 'vrbo', 'google'],
  availability: ['airbnb', 'booking', 'vrbo'],
  reviews: ['airbnb', 'booking', 'vrbo', 'google'],
  priceCompare: ['google'],
};

/** Native rating scales, echoed and never rescaled (spec 2.3). */
export const RATING_SCALE: Readonly<Record<Platform, 5 | 10>> = {
  airbnb: 5,
  vrbo: 5,
  google: 5,
  tripadvisor: 5,
  booking: 10,
  expedia: 10,
  hotels: 10,
};

export function compositeId(platform: Platform, platformListingId: string): string {
  return `stays_${platform}_${platformListingId}`;
}
