import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { calendarDays, parseCalendarAnswer } from '../../src/adapters/platforms/booking/parse-availability.js';
import { parseReviewCard, parseReviewPage } from '../../src/adapters/platforms/booking/parse-reviews.js';
import { parseSearchItem, parseSearchPage } from '../../src/adapters/platforms/booking/parse-search.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import type { Property } from '../../src/domain/model/property.js';
import { LegFailure } from '../../src/domain/ports/platform.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLES = path.resolve(ROOT, '../shared/upstream-samples/booking');
const FIXTURES = path.resolve(ROOT, 'fixtures/replay/booking/dml/graphql');
const read = (dir: string, file: string): unknown => JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
const codes = (w: FieldWarnings) => w.list.map((x) => x.code);
const messages = (w: FieldWarnings) => w.list.map((x) => x.message).join('\n');

function parseAll(items: unknown[], nights: number | null, currency = 'USD') {
  const w = new FieldWarnings('booking');
  const props = items.map((i) => parseSearchItem(i, { currency, nights }, w)).filter((p): p is Property => p !== null);
  return { props, w, byId: (id: string) => props.find((p) => p.platformListingId === id)! };
}

it('booking upstream samples: present, or skipped with a reason', () => {
  if (!existsSync(SAMPLES)) console.warn(`[skip] booking sample tests: ${SAMPLES} is absent (CI has it at ../shared/upstream-samples)`);
  expect(typeof existsSync(SAMPLES)).toBe('boolean');
});

describe.skipIf(!existsSync(SAMPLES))('booking parsers on the recorded samples', () => {
  // Read only when present: a skipped describe's body still runs while tests are collected.
  const results = (existsSync(SAMPLES) ? read(SAMPLES, 'graphql-searchresults-results-array-malta-usd.json') : []) as unknown[];

  it('FullSearch results (Malta, USD): ids, names, ratings, places, units', () => {
    const { props, w, byId } = parseAll(results, 7);
    expect(props).toHaveLength(50);
    const central = byId('1737972');
    expect(central).toMatchObject({
      id: 'stays_booking_1737972',
      platform: 'booking',
      name: 'Central Suites',
      url: 'https://www.booking.com/hotel/mt/central-suites.html',
      propertyType: 'apartment',
      location: { lat: null, lng: null, city: 'Qawra', region: null, country: 'MT' },
      // Its 3 are Booking.com's quality tiles for apartments (symbol TILES), not hotel stars.
      starRating: null,
      guestRating: 8.7,
      ratingScale: 10,
      reviewCount: 424,
      bedrooms: 1,
      bathrooms: 1,
      amenities: null,
      host: null,
      maxOccupancy: null,
    });
    expect(central.images).toEqual([
      'https://cf.bstatic.com/xdata/images/hotel/square600/68772252.jpg?k=c71446938e83dd0b1f897a3c24a7b4a5cfa5178465b0eba69907f94b5219ee46&o=',
    ]);
    expect(byId('17547')).toMatchObject({ name: 'The Westin Dragonara Resort, Malta', starRating: 5, guestRating: 9.1, reviewCount: 2617, propertyType: 'hotel' });
    expect(byId('7785436')).toMatchObject({ name: 'Bookarest Hostel Malta', propertyType: 'other', starRating: null });
    expect(byId('10834443').propertyType).toBe('house');
    // A studio states 0 bedrooms and 1 bathroom; a hotel room's zeros are "not counted".
    expect(byId('1765151')).toMatchObject({ bedrooms: 0, bathrooms: 1 });
    expect(byId('17517')).toMatchObject({ bedrooms: null, bathrooms: null });
    expect(byId('13469561')).toMatchObject({ bedrooms: 1, bathrooms: 2 });
    // No coordinates in search items: null plus one warning per field, not per item.
    expect(w.list.filter((x) => x.message.startsWith('location.lat:'))).toHaveLength(1);
    expect(codes(w)).toContain('field_unavailable');
  });

  it('FullSearch results: stay totals with excluded charges as fees, exact to the cent', () => {
    const { byId, w } = parseAll(results, 7);
    expect(byId('1737972').price).toMatchObject({ currency: 'USD', basis: 'all_in', nightlyPrice: 48.55, totalPrice: 343.89, nights: 7, fees: { cleaning: null, service: null, taxes: 25.4 } });
    expect(byId('17517').price).toMatchObject({ currency: 'USD', basis: 'all_in', nightlyPrice: 38.42, totalPrice: 287.77, nights: 7, fees: { cleaning: null, service: null, taxes: 18.83 } });
    // Type-22 and type-148 charges are in the total but in no fee field, with a warning.
    expect(byId('295563').price).toMatchObject({ totalPrice: 593.07, fees: { taxes: 38.57 } });
    expect(byId('14487366').price).toMatchObject({ totalPrice: 865.88, fees: { taxes: 63.5 } });
    expect(byId('13469561').price).toMatchObject({ totalPrice: 823.47, fees: { taxes: 56.27 } });
    expect(messages(w)).toMatch(/type 148/);
    expect(messages(w)).toMatch(/type 22\b/);
  });

  it('FullSearch results: undated searches carry no price; another currency is a failed leg', () => {
    expect(parseAll(results, null).byId('1737972').price).toBeNull();
    expect(() => parseAll(results, 7, 'EUR')).toThrow(new LegFailure('failed', 'booking answered in USD, not EUR'));
  });

  it('FullSearch envelope: results and total', () => {
    const page = parseSearchPage({ data: { searchQueries: { search: { pagination: { nbResultsTotal: 217 }, results } } } });
    expect(page.total).toBe(217);
    expect(page.results).toHaveLength(50);
  });

  it('AvailabilityCalendar (hotel 501672): sorted, derived honestly, no abbreviated prices', () => {
    const w = new FieldWarnings('booking');
    const answer = parseCalendarAnswer(read(SAMPLES, 'graphql-availabilitycalendar-response.json'), '501672', w);
    expect(answer.hotelId).toBe('501672');
    const days = calendarDays(answer.days, '2024-09-01', '2024-10-31', w, 'INR');
    expect(days).toHaveLength(61);
    expect(days.map((d) => d.date)).toEqual([...days.map((d) => d.date)].sort());
    expect(days.filter((d) => d.available)).toHaveLength(50);
    expect(days[0]).toEqual({ date: '2024-09-01', available: false, minNights: null, checkIn: false, checkOut: null, bookable: false, nightlyPrice: null });
    const on = (date: string) => days.find((d) => d.date === date)!;
    expect(on('2024-09-03')).toEqual({ date: '2024-09-03', available: true, minNights: 1, checkIn: true, checkOut: null, bookable: true, nightlyPrice: null });
    expect(on('2024-09-04').checkOut).toBe(true);
    // Check-in closed on the 27th, but a one-night stay from the 26th may end there.
    expect(on('2024-09-27')).toMatchObject({ available: false, checkIn: false, checkOut: true, bookable: false });
    expect(on('2024-10-31')).toMatchObject({ available: true, minNights: 1, bookable: true });
    expect(w.list.some((x) => x.message.startsWith('minNights:'))).toBe(true);
    expect(JSON.stringify(days)).not.toMatch(/7\.5K|7500/);
    expect(() => parseCalendarAnswer(read(SAMPLES, 'graphql-availabilitycalendar-response.json'), '102764', w)).toThrow(
      new LegFailure('failed', 'booking answered for listing 501672, not 102764'),
    );
  });

  it('ReviewCards (Garden Court, hotel 102764): ids, 10-scale scores, dates, split texts', () => {
    const cards = (existsSync(SAMPLES) ? read(SAMPLES, 'anon-graphql-reviewcards-garden-court-london.json') : []) as unknown[];
    const w = new FieldWarnings('booking');
    const reviews = cards.map((c) => parseReviewCard(c, '102764', w));
    expect(reviews).toHaveLength(30);
    expect(reviews[0]).toEqual({
      platform: 'booking',
      listingId: '102764',
      reviewId: '42e1dfde2a3bf242',
      rating: 7,
      ratingScale: 10,
      title: null,
      text: 'Placeholder positiveText text.\nPlaceholder negativeText text.',
      author: 'Guest1',
      date: '2025-12-14',
      tripType: 'family',
      language: null,
      locale: null,
      ownerResponse: 'Placeholder reply text.',
      liked: 'Placeholder positiveText text.',
      disliked: 'Placeholder negativeText text.',
    });
    expect(reviews[1]).toMatchObject({ reviewId: '9ea9077eef53bd14', liked: null, disliked: 'Placeholder negativeText text.', language: 'en', locale: 'en', tripType: 'couple', ownerResponse: null });
    expect(reviews[3]).toMatchObject({ reviewId: '6404ebdf6153ebd4', title: 'Placeholder title text.', tripType: 'solo', date: '2025-12-03' });
    expect(reviews.filter((r) => r?.language === null)).toHaveLength(3);
    expect(reviews.filter((r) => r?.ownerResponse !== null)).toHaveLength(24);
    expect(new Set(reviews.map((r) => r?.tripType))).toEqual(new Set(['family', 'couple', 'solo', 'friends']));
    expect(w.list).toEqual([]);
  });
});

describe('booking parsers on the project fixtures', () => {
  it('FullSearch.json: four properties, prices, sold-out and unrated cases', () => {
    const page = parseSearchPage(read(FIXTURES, 'FullSearch.json'));
    expect(page.total).toBe(4);
    const { props, byId, w } = parseAll(page.results, 4);
    expect(props.map((p) => p.platformListingId)).toEqual(['4400101', '4400102', '4400103', '4400104']);
    expect(byId('4400101')).toMatchObject({
      name: 'Harbour Lantern Suites',
      url: 'https://www.booking.com/hotel/mt/harbour-lantern-suites.html',
      propertyType: 'apartment',
      starRating: null, // 4 tiles, not stars
      guestRating: 8.9,
      reviewCount: 312,
      location: { city: 'Valletta', country: 'MT' },
      price: { currency: 'USD', nightlyPrice: 103.13, totalPrice: 416, nights: 4, fees: { cleaning: null, service: null, taxes: 30.49 } },
    });
    expect(byId('4400102').price).toMatchObject({ totalPrice: 1059.53, nightlyPrice: 245.1, fees: { taxes: 68.63 } });
    expect(byId('4400103').price).toMatchObject({ currency: 'USD', basis: 'all_in', nightlyPrice: 37.5, totalPrice: 150, nights: 4, fees: { cleaning: null, service: null, taxes: null } });
    expect(byId('4400104')).toMatchObject({ propertyType: 'villa', guestRating: null, reviewCount: 0, bedrooms: 3, bathrooms: 2, price: null });
    expect(messages(w)).toMatch(/price: sold out/);
    expect(codes(w)).toContain('fee_uncategorised');
  });

  it('AvailabilityCalendar.json: unsorted days, a 3-night minimum, closed dates', () => {
    const w = new FieldWarnings('booking');
    const answer = parseCalendarAnswer(read(FIXTURES, 'AvailabilityCalendar.json'), '4400101', w);
    const days = calendarDays(answer.days, '2027-06-03', '2027-06-16', w, 'INR');
    expect(days.map((d) => d.date)).toEqual(Array.from({ length: 14 }, (_, i) => `2027-06-${String(i + 3).padStart(2, '0')}`));
    const on = (date: string) => days.find((d) => d.date === date)!;
    expect(on('2027-06-05')).toEqual({ date: '2027-06-05', available: false, minNights: null, checkIn: false, checkOut: true, bookable: false, nightlyPrice: null });
    expect(on('2027-06-07')).toMatchObject({ available: true, checkOut: null });
    expect(on('2027-06-10')).toMatchObject({ minNights: 3, bookable: true });
    expect(on('2027-06-11').checkOut).toBeNull();
    expect(on('2027-06-13').checkOut).toBe(true);
    // A departure on the window's first day is known from the answered day before it, when there is one.
    expect(days[0]!.checkOut).toBe(true);
    expect(calendarDays(answer.days, '2027-06-01', '2027-06-02', w, 'INR')[0]!.checkOut).toBeNull();
  });

  it('ReviewList.json: cards, total, anonymous and unknown-language reviews', () => {
    const page = parseReviewPage(read(FIXTURES, 'ReviewList.json'));
    expect(page.total).toBe(5);
    const w = new FieldWarnings('booking');
    const reviews = page.cards.map((c) => parseReviewCard(c, '4400101', w));
    expect(reviews[0]).toMatchObject({ reviewId: 'fx0001aa', rating: 9, date: '2026-04-20', title: 'Bright and calm', tripType: 'couple', language: 'en', ownerResponse: 'Thank you for staying with us (fixture reply).' });
    expect(reviews[1]).toMatchObject({ language: 'en', title: null, disliked: null, text: 'Good base for walking.' });
    expect(reviews[3]).toMatchObject({ author: null, language: null, tripType: 'friends', liked: null, text: 'Street noise at night (fixture text).' });
    expect(reviews[4]).toMatchObject({ tripType: 'business', language: 'fr', rating: 8 });
  });
});
