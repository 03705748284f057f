import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import { parseCalendar, parseListing, parseReviewsPage, parseSearchPage, type SearchContext } from '../../src/adapters/platforms/airbnb/parse.js';
import { LegFailure } from '../../src/domain/ports/platform.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLES = path.resolve(ROOT, '../shared/upstream-samples/airbnb');
const FIXTURES = path.resolve(ROOT, 'fixtures/replay/airbnb/api/v3');
const sample = (file: string): unknown => JSON.parse(readFileSync(path.join(SAMPLES, file), 'utf8'));
const fixture = (file: string): unknown => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8'));
const SITE = 'https://www.airbnb.com';
const ctx = (checkIn: string | null, checkOut: string | null, currency = 'USD'): SearchContext => ({
  currency, siteUrl: SITE, stay: checkIn && checkOut ? { checkIn, checkOut, adults: 2, children: 0 } : null,
});
const codes = (w: FieldWarnings) => w.list.map((x) => x.code);

const LYON = 'anon-graphql-StaysSearch-response-lyon-3results.json';
const VARIANTS = 'anon-graphql-StaysSearch-excerpt-price-variants-hotel-card.json';
const PDP_EXCERPT = 'anon-graphql-StaysPdpSections-excerpt-apartment-listing38817969.json';
const PDP_LIVE = 'live-StaysPdpSections-undated-listing19861171.json';
const CALENDAR = 'anon-graphql-PdpAvailabilityCalendar-response-listing38817969.json';
const REVIEWS = 'anon-graphql-StaysPdpReviewsQuery-response-listing38817969.json';

it('airbnb shared samples: present, or skipped with a clear message', () => {
  if (!existsSync(SAMPLES)) console.warn(`SKIPPED: airbnb parser tests on recorded responses need ${SAMPLES} (not present here).`);
  expect(typeof existsSync(SAMPLES)).toBe('boolean');
});

describe.skipIf(!existsSync(SAMPLES))('airbnb parsers on the recorded samples', () => {
  it('StaysSearch (Lyon): base64 ids, names, localized ratings, and a dated price from the line items', () => {
    const w = new FieldWarnings('airbnb');
    const page = parseSearchPage(sample(LYON), ctx('2026-11-06', '2026-11-11'), w);
    expect(page.resultCount).toBe(3);
    expect(page.pageCursors).toHaveLength(3);
    const [a, b, c] = page.items;
    expect(a).toMatchObject({
      id: 'stays_airbnb_1344016074576611955', platformListingId: '1344016074576611955', url: `${SITE}/rooms/1344016074576611955`,
      name: 'La Suite - Terreaux IV - 2 bedrooms', propertyType: 'apartment', guestRating: 4.95, ratingScale: 5, reviewCount: 74,
      location: { lat: 45.7677, lng: 4.8325, city: null, country: null }, starRating: null, amenities: null, bedrooms: null,
      images: ['https://example.com/fixture-image/1.jpg', 'https://example.com/fixture-image/2.jpg'],
    });
    expect(a!.price).toMatchObject({ currency: 'USD', basis: 'all_in', nightlyPrice: 446.94, totalPrice: 2244.7, nights: 5, fees: { cleaning: null, service: null, taxes: 10.01 } });
    expect(b).toMatchObject({ platformListingId: '968734101213290865', guestRating: 4.85, reviewCount: 155, price: null });
    expect(c).toMatchObject({ platformListingId: '1917560', name: 'Modern flat in the center of Lyon', guestRating: 4.89, reviewCount: 423, price: null });
    expect(codes(w)).toContain('price_other_dates'); // b and c were priced for other (flexible) dates
    expect(w.list.find((x) => x.message.startsWith('amenities:'))?.code).toBe('field_unavailable');
  });

  it('StaysSearch (Lyon): a long stay discount lowers the nightly accommodation price', () => {
    const w = new FieldWarnings('airbnb');
    const b = parseSearchPage(sample(LYON), ctx('2026-10-08', '2026-10-13'), w).items[1]!;
    expect(b.price).toMatchObject({ currency: 'USD', basis: 'all_in', nightlyPrice: 151.45, totalPrice: 796.62, nights: 5, fees: { cleaning: null, service: null, taxes: 39.39 } });
  });

  it('StaysSearch (Lyon): undated search has no prices; another currency fails the leg', () => {
    const w = new FieldWarnings('airbnb');
    expect(parseSearchPage(sample(LYON), ctx(null, null), w).items.map((p) => p.price)).toEqual([null, null, null]);
    expect(codes(w)).not.toContain('price_other_dates');
    expect(() => parseSearchPage(sample(LYON), ctx('2026-11-06', '2026-11-11', 'EUR'), new FieldWarnings('airbnb'))).toThrow(LegFailure);
    expect(() => parseSearchPage(sample(LYON), ctx('2026-11-06', '2026-11-11', 'EUR'), new FieldWarnings('airbnb'))).toThrow(/not EUR/);
  });

  it('StaysSearch price variants: hotel card name and type, ordered price line, combined fees and a resort fee line', () => {
    const w = new FieldWarnings('airbnb');
    const items = parseSearchPage(sample(VARIANTS), ctx('2026-10-01', '2026-10-06'), w).items;
    expect(items.map((p) => p.name)).toEqual(['Example Suite - 2 bedrooms', 'Example Flat - 1 bedroom', 'Example Hotel Lyon']);
    const hotel = items[2]!;
    expect(hotel).toMatchObject({ platformListingId: '1532589801839552925', propertyType: 'hotel', guestRating: 4.77, reviewCount: 64, location: { lat: 45.7489, lng: 4.8637 } });
    // 736.19 + 40.49 (taxes and fees) + 32.55 (resort fee) = 809.23, shown rounded up as "$810 total".
    expect(hotel.price).toMatchObject({ currency: 'USD', basis: 'all_in', nightlyPrice: 147.24, totalPrice: 809.23, nights: 5, fees: { cleaning: null, service: null, taxes: null } });
    // The price line's items, as stated: the combined taxes and fees, and the resort fee classified by its name.
    expect(hotel.price!.fees.items).toEqual([
      { kind: 'other', name: 'Taxes and fees', amount: 40.49, included: true, payAtProperty: null },
      { kind: 'resort', name: 'Resort fee', amount: 32.55, included: true, payAtProperty: null },
    ]);
    expect(codes(w)).toContain('price_fees_combined');
    expect(codes(w)).not.toContain('price_fee_unclassified');
  });

  it('StaysPdpSections excerpt: location, host, amenities without the unavailable ones, photos, capacity', () => {
    const w = new FieldWarnings('airbnb');
    const p = parseListing(sample(PDP_EXCERPT), '38817969', SITE, w)!;
    expect(p).toMatchObject({
      id: 'stays_airbnb_38817969', name: 'Charming apartment - Lyon center', propertyType: 'apartment',
      location: { lat: 45.7714, lng: 4.8345, city: 'Lyon', region: 'Auvergne-Rhône-Alpes', country: 'FR' },
      guestRating: 4.91, reviewCount: 490, maxOccupancy: 4, bedrooms: 1, bathrooms: 1, starRating: null,
      host: { name: 'Host A', isSuperhost: true }, price: null,
    });
    expect(p.amenities).toEqual(expect.arrayContaining(['kitchen', 'wifi', 'workspace', 'free_parking', 'tv', 'washer', 'crib', 'smoke_alarm']));
    expect(p.amenities).not.toContain('air_conditioning'); // listed with available: false
    expect(p.images).toHaveLength(4);
    expect(p.images![0]).toBe('https://example.com/fixture-image/anon/apartment-0.jpeg');
    // The reviews' verdict is the page's REVIEWS_DEFAULT section: no histogram, topics or trip types, each said once.
    expect(p.reviewSummary).toEqual({ count: 490, average: 4.91, ratingScale: 5, histogram: null, categories: [{ name: 'Cleanliness', score: 5, scale: 5 }, { name: 'Accuracy', score: 5, scale: 5 }], mentions: null, byTripType: null, basis: 'platform' });
    expect(w.list.map((x) => x.message.split(':')[0])).toEqual(['reviewSummary.histogram', 'reviewSummary.mentions', 'reviewSummary.byTripType']);
  });

  it('StaysPdpSections excerpt: an answer for another listing is a failed leg', () => {
    expect(() => parseListing(sample(PDP_EXCERPT), '19861171', SITE, new FieldWarnings('airbnb'))).toThrow('airbnb answered for listing 38817969, not 19861171');
  });

  it('StaysPdpSections live (undated): the full response', () => {
    const w = new FieldWarnings('airbnb');
    const p = parseListing(sample(PDP_LIVE), '19861171', SITE, w)!;
    expect(p).toMatchObject({
      name: 'Nimman Private Pool Villa near MAYA & One Nimman', propertyType: 'house',
      location: { lat: 18.8004682537493, lng: 98.96646934770429, country: 'TH', city: 'Tambon Su Thep' },
      guestRating: 4.84, reviewCount: 135, maxOccupancy: 12, bedrooms: 4, bathrooms: 4, host: { name: 'Jane', isSuperhost: true },
    });
    expect(p.images).toHaveLength(20);
    expect(p.amenities).toEqual(expect.arrayContaining(['pool', 'wifi', 'kitchen', 'air_conditioning', 'bbq_grill', 'fireplace', 'garden', 'balcony']));
    for (const absent of ['heating', 'dryer', 'smoke_alarm']) expect(p.amenities).not.toContain(absent); // "Not included"
  });

  it('PdpAvailabilityCalendar: days of the window, bookable null kept null', () => {
    const w = new FieldWarnings('airbnb');
    const days = parseCalendar(sample(CALENDAR), '38817969', '2026-09-01', '2027-03-31', w)!;
    expect(days).toHaveLength(49);
    expect(days[0]).toEqual({ date: '2026-09-01', available: false, minNights: 1, checkIn: false, checkOut: false, bookable: null, nightlyPrice: null });
    expect(days.find((d) => d.date === '2026-12-03')).toEqual({ date: '2026-12-03', available: true, minNights: 2, checkIn: false, checkOut: true, bookable: true, nightlyPrice: null });
    expect(parseCalendar(sample(CALENDAR), '38817969', '2026-12-02', '2026-12-04', w)!.map((d) => d.date)).toEqual(['2026-12-02', '2026-12-03', '2026-12-04']);
    expect(() => parseCalendar(sample(CALENDAR), '123', '2026-09-01', '2026-09-30', w)).toThrow(LegFailure);
  });

  it('StaysPdpReviewsQuery: rating, date, language, text; no title, liked, disliked or trip type', () => {
    const w = new FieldWarnings('airbnb');
    const page = parseReviewsPage(sample(REVIEWS), '38817969', w)!;
    expect(page.total).toBe(490);
    expect(page.reviews.map((r) => [r.reviewId, r.rating, r.date, r.language, r.author])).toEqual([
      ['1000001', 5, '2026-09-15', 'en', 'Person2'],
      ['1000006', 5, '2026-09-22', 'en', 'Person3'],
      ['1000009', 5, '2026-09-25', 'fr', 'Person4'],
    ]);
    expect(page.reviews[0]).toMatchObject({ platform: 'airbnb', listingId: '38817969', ratingScale: 5, title: null, liked: null, disliked: null, tripType: null, ownerResponse: null });
    expect(page.reviews[0]!.text).toBe('Placeholder text 1.\nPlaceholder text 1.\nPlaceholder text 1.\nPlaceholder text 1.');
  });
});

describe('airbnb parsers on the project fixtures', () => {
  it('StaysSearch: cleaning, service and taxes; a hotel card without a Total line; a new listing', () => {
    const w = new FieldWarnings('airbnb');
    const [flat, hotel, villa, house] = parseSearchPage(fixture('StaysSearch/StaysSearch.json'), ctx('2027-06-10', '2027-06-14'), w).items;
    expect(flat).toMatchObject({ platformListingId: '910000001', name: 'Sunny test flat by the river', propertyType: 'apartment', guestRating: 4.87, reviewCount: 112 });
    expect(flat!.price).toMatchObject({ currency: 'USD', basis: 'all_in', nightlyPrice: 120.5, totalPrice: 625.53, nights: 4, fees: { cleaning: 45, service: 74.43, taxes: 24.1 } });
    expect(hotel).toMatchObject({ name: 'Hotel Miradouro Exemplo', propertyType: 'hotel', reviewCount: 1204 });
    expect(hotel!.price).toMatchObject({ currency: 'USD', basis: 'all_in', nightlyPrice: 112.1, totalPrice: 486.8, nights: 4, fees: { cleaning: null, service: null, taxes: 38.4 } });
    expect(villa).toMatchObject({ propertyType: 'villa', guestRating: null, reviewCount: null, price: null });
    expect(house!.price?.totalPrice).toBe(1233.55);
    expect(w.list.find((x) => x.message.startsWith('guestRating:'))?.code).toBe('field_unavailable');
  });

  it('StaysPdpSections: condo, half baths, country from the place line, mapped amenities only', () => {
    const w = new FieldWarnings('airbnb');
    const p = parseListing(fixture('StaysPdpSections/StaysPdpSections/U3RheUxpc3Rpbmc6OTEwMDAwMDAx.json'), '910000001', SITE, w)!;
    expect(p).toMatchObject({
      propertyType: 'apartment', maxOccupancy: 5, bedrooms: 2, bathrooms: 1.5, guestRating: 4.87, reviewCount: 112,
      location: { city: 'Lisbon', region: 'Lisbon District', country: 'PT', lat: 38.7113, lng: -9.1302 }, host: { name: 'Testhost', isSuperhost: false },
    });
    expect([...p.amenities!].sort()).toEqual(['air_conditioning', 'balcony', 'kitchen', 'sea_view', 'wifi', 'workspace']);
    expect(p.images).toHaveLength(3);
  });

  it('StaysPdpReviewsQuery: HTML entities and the host reply', () => {
    const page = parseReviewsPage(fixture('StaysPdpReviewsQuery/StaysPdpReviewsQuery/U3RheUxpc3Rpbmc6OTEwMDAwMDAx.json'), '910000001', new FieldWarnings('airbnb'))!;
    expect(page.reviews).toHaveLength(4);
    expect(page.reviews[0]!.text).toBe('Great light.\nWould stay again & again.');
    expect(page.reviews[1]).toMatchObject({ language: 'pt', rating: 4, ownerResponse: 'Obrigado pela estadia!\nVolte sempre.', date: '2027-02-14' });
  });

  it('PdpAvailabilityCalendar: booked run, check-out on the first booked day, bookable null', () => {
    const days = parseCalendar(fixture('PdpAvailabilityCalendar/PdpAvailabilityCalendar/910000001.json'), '910000001', '2027-06-07', '2027-06-13', new FieldWarnings('airbnb'))!;
    expect(days.map((d) => [d.date, d.available, d.checkOut])).toEqual([
      ['2027-06-07', true, true], ['2027-06-08', false, true], ['2027-06-09', false, false], ['2027-06-10', false, false],
      ['2027-06-11', false, false], ['2027-06-12', false, false], ['2027-06-13', true, true],
    ]);
    const late = parseCalendar(fixture('PdpAvailabilityCalendar/PdpAvailabilityCalendar/910000001.json'), '910000001', '2027-07-28', '2027-07-31', new FieldWarnings('airbnb'))!;
    expect(late.map((d) => d.bookable)).toEqual([null, null, null, null]);
  });
});
