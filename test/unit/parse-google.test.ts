import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseListing, parseOffers, parsePrice } from '../../src/adapters/platforms/google/parse-details.js';
import { parseMapsReviews } from '../../src/adapters/platforms/google/parse-reviews.js';
import { exactNameMatch, parseSearchPage } from '../../src/adapters/platforms/google/parse-search.js';
import { Price } from '../../src/domain/model/price.js';
import { Property } from '../../src/domain/model/property.js';
import { Review } from '../../src/domain/model/review.js';
import { LegFailure, type Stay } from '../../src/domain/ports/platform.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLES = path.resolve(ROOT, '../shared/upstream-samples/google');
const load = (file: string): unknown => JSON.parse(readFileSync(path.join(SAMPLES, file), 'utf8'));
const LONDON = 'serpapi-google_hotels-search-london-usd.json';
const MALANG = 'serpapi-google_hotels-search-malang-idr.json';
const DETAILS = 'serpapi-google_hotels-property-details-london.json';
const MAPS_REVIEWS = 'anon-serpapi-google_maps_reviews-goa-hotel.json';
const MILLENNIUM = 'ChkIqafB4ez8rtLKARoML2cvMXE2cWJiYjhiEAE';
const DETAILS_STAY: Stay = { checkIn: '2025-03-12', checkOut: '2025-03-13', occupancy: { adults: 2, children: 0, childAges: [] } };
const codes = (warnings: { code: string }[]) => warnings.map((w) => w.code);
const messages = (warnings: { message: string }[]) => warnings.map((w) => w.message).join('\n');

it('google shared samples: present, or skipped with a reason', () => {
  if (!existsSync(SAMPLES)) console.warn(`[parse-google] ${SAMPLES} is absent: the shared-sample parser tests are skipped (CI has it at ../shared/upstream-samples).`);
  expect(typeof existsSync(SAMPLES)).toBe('boolean');
});

describe.skipIf(!existsSync(SAMPLES))('google_hotels search samples', () => {
  const london = () => parseSearchPage(load(LONDON), { currency: 'USD', stay: { checkIn: '2025-03-13', checkOut: '2025-03-24' } });

  it('London (USD, 11 nights): 20 properties in Google order, each a valid Property, page token kept', () => {
    const page = london();
    expect(page.items).toHaveLength(20);
    for (const item of page.items) expect(Property.safeParse(item).success).toBe(true);
    expect(page.nextPageToken).toBe('CBI=');
    expect(page.items.filter((p) => p.propertyType === 'hotel')).toHaveLength(15);
  });

  it('a vacation rental: token as id, unit facts from essential_info, amenities mapped, stay price from total_rate', () => {
    const first = london().items[0]!;
    expect(first.platformListingId).toBe('ChoQwpS_u-_n6ZG-ARoNL2cvMTF5M18wNXBnbhAC');
    expect(first.id).toBe('stays_google_ChoQwpS_u-_n6ZG-ARoNL2cvMTF5M18wNXBnbhAC');
    expect(first.url).toBe('https://www.google.com/travel/hotels/entity/ChoQwpS_u-_n6ZG-ARoNL2cvMTF5M18wNXBnbhAC');
    expect(first.name).toBe('APlaceToStay Central London Apartment, Zone 1 COV');
    expect(first.propertyType).toBe('house');
    expect([first.maxOccupancy, first.bedrooms, first.bathrooms]).toEqual([2, 1, 1]);
    // "Smoke-free" has no canonical value and is dropped.
    expect(first.amenities).toEqual(['crib', 'heating', 'kitchen', 'free_parking', 'wifi']);
    expect(first.location.lat).toBeCloseTo(51.49688, 5);
    expect(first.guestRating).toBeNull();
    expect(first.reviewCount).toBeNull();
    // $1,102 all-in; $919 before taxes over 11 nights = 83.545... -> 83.55.
    expect(first.price).toEqual({ currency: 'USD', basis: 'all_in', nightlyPrice: 83.55, totalPrice: 1102, nights: 11, fees: { cleaning: null, service: null, taxes: null, items: [{ kind: 'other', name: 'Taxes and fees', amount: 183, included: true, payAtProperty: null }] } });
    expect(first.images?.[0]).toMatch(/^https:\/\/q-xx\.bstatic\.com\//);
  });

  it('a hotel: star class, 5-scale rating and review count; the rental type comes from "Entire <kind>", not the name', () => {
    const items = london().items;
    const plaza = items.find((p) => p.platformListingId === 'ChkIlpfjpu_YpugNGg0vZy8xMWJ4ZHhyeW1rEAE')!;
    expect(plaza.name).toBe('Park Plaza London Westminster Bridge');
    expect([plaza.propertyType, plaza.starRating, plaza.guestRating, plaza.ratingScale, plaza.reviewCount]).toEqual(['hotel', 4, 4.4, 5, 10355]);
    expect(plaza.price?.totalPrice).toBe(2695);
    expect(plaza.amenities).toContain('spa');
    expect(plaza.bedrooms).toBeNull();
    const acton = items.find((p) => p.name === 'Lavish Villa in Acton')!;
    expect([acton.propertyType, acton.maxOccupancy, acton.bedrooms, acton.bathrooms]).toEqual(['apartment', 5, 2, 2]);
    const innit = items.find((p) => p.name === 'INNit Townhouse')!;
    expect(innit.amenities).toBeNull();
    expect(innit.starRating).toBeNull();
  });

  it('says what Google does not give (city, hosts, hotel unit facts) instead of inventing it', () => {
    const text = messages(london().warnings);
    expect(text).toMatch(/^location\.city:/m);
    expect(text).toMatch(/^host: google does not name hosts/m);
    expect(text).toMatch(/^bedrooms: google does not state it for hotels/m);
    expect(text).toMatch(/^amenities:/m);
  });

  it('Malang (IDR, "Rp 626.423" grouping, ads[]): exact rupiah amounts, sponsored ads left out', () => {
    const page = parseSearchPage(load(MALANG), { currency: 'IDR', stay: { checkIn: '2026-04-01', checkOut: '2026-04-02' } });
    expect(page.items).toHaveLength(20);
    const harris = page.items[0]!;
    expect(harris.name).toBe('HARRIS Hotel and Conventions Malang');
    expect(harris.price).toMatchObject({ currency: 'IDR', totalPrice: 626423, nightlyPrice: 507868, nights: 1 });
    expect(page.items.find((p) => p.name === 'Hotel Tugu Malang')?.price?.totalPrice).toBe(1177803);
    expect(page.items.map((p) => p.platformListingId)).not.toContain('CgsIt_Kf-srg8cD1ARAB');
    const villa = page.items.find((p) => p.platformListingId === 'ChkQpaOakpaiuORQGg0vZy8xMXl5ZjdmYmZzEAI')!;
    expect([villa.propertyType, villa.maxOccupancy, villa.bedrooms, villa.bathrooms]).toEqual(['villa', 5, 1, 2]);
  });

  it('an answer in another currency than asked is a failed leg, never relabelled', () => {
    expect(() => parseSearchPage(load(MALANG), { currency: 'USD', stay: null })).toThrow(LegFailure);
    expect(() => parseSearchPage(load(MALANG), { currency: 'USD', stay: null })).toThrow('google answered in IDR, not USD');
  });

  it('an answer for other dates than asked is a failed leg', () => {
    expect(() => parseSearchPage(load(LONDON), { currency: 'USD', stay: { checkIn: '2025-03-13', checkOut: '2025-03-20' } })).toThrow(/2025-03-13 to 2025-03-24, not 2025-03-13 to 2025-03-20/);
  });

  it('resolves a name only on an exact (normalised) match', () => {
    expect(exactNameMatch(load(LONDON), 'millennium hotel and conference centre gloucester london')).toBe(MILLENNIUM);
    expect(exactNameMatch(load(LONDON), 'Millennium Hotel')).toBeNull();
    expect(exactNameMatch(load(MALANG), 'Ascent Hotel & Cafe Malang')).toBeNull(); // an ad, not a result
  });
});

describe.skipIf(!existsSync(SAMPLES))('google_hotels property details sample (Millennium Gloucester, 45 OTA rates)', () => {
  it('listing: the property, its country from the address, and null + warning for what is absent', () => {
    const listing = parseListing(load(DETAILS), MILLENNIUM)!;
    expect(Property.safeParse(listing.value).success).toBe(true);
    expect(listing.value).toMatchObject({
      id: `stays_google_${MILLENNIUM}`,
      name: 'Millennium Hotel and Conference Centre Gloucester London',
      propertyType: 'hotel',
      starRating: 4,
      guestRating: 3.8,
      reviewCount: 5647,
      location: { lat: 51.4934174, lng: -0.1830123, country: 'GB', city: null },
      amenities: null,
      images: null,
      price: null,
    });
    expect(messages(listing.warnings)).toMatch(/^amenities:/m);
    expect(messages(listing.warnings)).toMatch(/^images:/m);
  });

  // Issue 22 item 5: a recorded answer that echoes the token only in search_parameters (the
  // recorded sample with its top-level copy removed) is the same listing, not a format error.
  const tokenOnlyInParameters = () => {
    const { property_token: _top, ...rest } = load(DETAILS) as Record<string, unknown>;
    return rest;
  };

  it('listing: the token taken from search_parameters when the answer has none at the top level', () => {
    const listing = parseListing(tokenOnlyInParameters(), MILLENNIUM)!;
    expect(listing.value).toEqual(parseListing(load(DETAILS), MILLENNIUM)!.value);
    expect(codes(listing.warnings)).not.toContain('item_skipped');
  });

  it('listing: with the token in neither place, nothing says which listing answered: a failed leg, not a format error', () => {
    const { search_parameters: params, ...rest } = tokenOnlyInParameters() as Record<string, unknown> & { search_parameters: Record<string, unknown> };
    const { property_token: _echo, ...paramsWithout } = params;
    // Never another property's data: the request's token names the listing only once the answer echoed it.
    expect(() => parseListing({ ...rest, search_parameters: paramsWithout }, MILLENNIUM)).toThrow('google did not say which listing it answered for');
  });

  it('search: a details answer whose token is only in search_parameters is one item', () => {
    const page = parseSearchPage(tokenOnlyInParameters(), { currency: 'USD', stay: { checkIn: DETAILS_STAY.checkIn, checkOut: DETAILS_STAY.checkOut } });
    expect(page.items.map((p) => p.platformListingId)).toEqual([MILLENNIUM]);
    expect(exactNameMatch(tokenOnlyInParameters(), 'Millennium Hotel and Conference Centre Gloucester London')).toBe(MILLENNIUM);
  });

  it('listing: an answer about another property is a failed leg', () => {
    expect(() => parseListing(load(DETAILS), 'ChkIotherHotel0000EAE')).toThrow(`google answered for listing ${MILLENNIUM}, not ChkIotherHotel0000EAE`);
  });

  it('price: the lowest OTA total for the stay, naming the OTA and its link', () => {
    const price = parsePrice(load(DETAILS), { listingId: MILLENNIUM, currency: 'USD', ...DETAILS_STAY })!;
    expect(Price.safeParse(price.value).success).toBe(true);
    expect(price.value).toMatchObject({ source: 'Vio.com', totalPrice: 179, nightlyPrice: 151, nights: 1, currency: 'USD', fees: { cleaning: null, service: null, taxes: null } });
    expect(price.value.url).toMatch(/^https:\/\/www\.google\.com\/travel\/clk\?pc=AA80Oszg1EwU8/);
    expect(() => parsePrice(load(DETAILS), { listingId: MILLENNIUM, currency: 'EUR', ...DETAILS_STAY })).toThrow('google answered in USD, not EUR');
  });

  it('price compare: 45 offers from prices[] (featured ads left out), one per OTA, unclear bases named', () => {
    const set = parseOffers(load(DETAILS), MILLENNIUM, DETAILS_STAY, 'USD')!;
    expect(set.value.property).toBe('Millennium Hotel and Conference Centre Gloucester London');
    expect(set.value.googleHotelId).toBe(MILLENNIUM);
    expect(set.value.offers).toHaveLength(45);
    expect(set.value.offers[0]).toMatchObject({ ota: 'Millennium Hotel and Conference Centre Gloucester London', totalPrice: 201, currency: 'USD' });
    expect(set.value.offers.find((o) => o.ota === 'Booking.com')?.totalPrice).toBe(202);
    expect(set.value.offers.every((o) => o.url.startsWith('https://www.google.com/travel/clk'))).toBe(true);
    expect(Math.min(...set.value.offers.map((o) => o.totalPrice))).toBe(179);
    expect(codes(set.warnings)).toEqual(['price_basis_unclear', 'offer_terms_unknown']);
    expect(set.warnings[0]!.message).toContain('Wego');
    // No OTA's remarks state refund terms or meals: each offer's null is covered (issue 34).
    expect(set.warnings[1]!.message).toBe('google does not state board, refundable for some offers; those terms are null.');
  });
});

describe.skipIf(!existsSync(SAMPLES))('google_maps_reviews sample (the live google reviews format)', () => {
  it('maps each review; owner replies, trip types and the next page token are kept', () => {
    const page = parseMapsReviews(load(MAPS_REVIEWS), 'ChIJCQgB_SjBvzsRTNqpJU5Xifc');
    expect(page.reviews).toHaveLength(7);
    for (const r of page.reviews) expect(Review.safeParse(r).success).toBe(true);
    expect(page.reviews[0]).toMatchObject({
      reviewId: 'ChZDSUhNMG9nS0VJQ0FnTURnOWJTRFhBEAE', rating: 5, ratingScale: 5, date: '2025-02-26', author: 'Reviewer1',
      text: 'Placeholder review text 1.', tripType: 'Vacation', ownerResponse: 'Placeholder owner reply.', title: null, language: null,
    });
    expect(page.reviews[1]).toMatchObject({ rating: 1, date: '2025-04-17', ownerResponse: null });
    expect(page.reviews.filter((r) => r.ownerResponse !== null)).toHaveLength(3);
    expect(page.nextPageToken).toBe('CAESBkVnSUlDQQ==');
  });

  it('reviews of another place are a failed leg', () => {
    expect(() => parseMapsReviews(load(MAPS_REVIEWS), 'ChIJotherPlace')).toThrow(LegFailure);
  });
});
