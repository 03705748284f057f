import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReviewsPage } from '../../src/adapters/platforms/airbnb/parse-reviews.js';
import { parseSearchItem } from '../../src/adapters/platforms/booking/parse-search.js';
import { parseReviewCard } from '../../src/adapters/platforms/booking/parse-reviews.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import { languageTag } from '../../src/domain/locale.js';

/** Issue 13 item 5: read what the platform says (places, class, type, language tags), not what it resembles. */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLES = path.resolve(ROOT, '../shared/upstream-samples/booking');
const fixture = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/replay/booking/dml/graphql/FullSearch.json'), 'utf8'));
const results: any[] = fixture.data.searchQueries.search.results; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A fixture search item with some fields replaced. */
function item(over: { city?: string; typeId?: number; name?: string; starRating?: unknown }) {
  const base = results[0];
  const data = { ...base.basicPropertyData, location: { ...base.basicPropertyData.location, city: over.city ?? base.basicPropertyData.location.city } };
  if (over.typeId !== undefined) data.accommodationTypeId = over.typeId;
  if (over.starRating !== undefined) data.starRating = over.starRating;
  return { ...base, basicPropertyData: data, displayName: { text: over.name ?? base.displayName.text } };
}
const parse = (raw: unknown, w = new FieldWarnings('booking')) => parseSearchItem(raw, { currency: 'USD', nights: null }, w)!;

describe('booking: places, class and type as the platform states them', () => {
  it('"Chicago (Illinois)" is a city and a region; a plain city keeps region null with a warning', () => {
    const w = new FieldWarnings('booking');
    expect(parse(item({ city: 'Chicago (Illinois)' }), w).location).toMatchObject({ city: 'Chicago', region: 'Illinois' });
    expect(w.list.some((x) => x.message.startsWith('location.region'))).toBe(false);
    const w2 = new FieldWarnings('booking');
    expect(parse(item({ city: 'Valletta' }), w2).location).toMatchObject({ city: 'Valletta', region: null });
    expect(w2.list.some((x) => x.message.startsWith('location.region'))).toBe(true);
  });

  it('tiles are not stars: starRating null with a warning saying what the tiles are; stars stay', () => {
    const w = new FieldWarnings('booking');
    expect(parse(item({ starRating: { value: 4, symbol: 'TILES' } }), w).starRating).toBeNull();
    expect(w.list.map((x) => x.code)).toContain('rating_not_stars');
    expect(parse(item({ starRating: { value: 4, symbol: 'STARS' } })).starRating).toBe(4);
    const caption = { value: 3, caption: { translation: 'Awarded to home and apartment-like properties by Booking.com. These represent quality ratings.' } };
    expect(parse(item({ starRating: caption })).starRating).toBeNull();
  });

  it('tiles in the recorded Malta answer are never reported as stars', () => {
    if (!existsSync(SAMPLES)) return;
    const raw = JSON.parse(readFileSync(path.join(SAMPLES, 'graphql-searchresults-results-array-malta-usd.json'), 'utf8')) as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const r of raw) {
      const p = parse(r);
      if (r.basicPropertyData.starRating?.symbol === 'TILES') expect(p.starRating).toBeNull();
      if (r.basicPropertyData.starRating?.symbol === 'STARS') expect(p.starRating).toBe(r.basicPropertyData.starRating.value);
    }
  });

  it('a holiday home (type 220) named a condo or apartment is an apartment; others stay a house; other types as stated', () => {
    expect(parse(item({ typeId: 220, name: '2BR Condo near the Strip' })).propertyType).toBe('apartment');
    expect(parse(item({ typeId: 220, name: 'Seaview Apartment' })).propertyType).toBe('apartment');
    expect(parse(item({ typeId: 220, name: 'Villa Rosa' })).propertyType).toBe('villa');
    expect(parse(item({ typeId: 220, name: 'Family Home Mellieha' })).propertyType).toBe('house');
    expect(parse(item({ typeId: 204, name: 'Apartment Hotel Central' })).propertyType).toBe('hotel');
  });
});

describe('review language: the full BCP 47 tag beside the ISO 639-1 code', () => {
  it('languageTag keeps region and script in canonical case', () => {
    expect(languageTag('zh-TW')).toEqual({ language: 'zh', locale: 'zh-TW' });
    expect(languageTag('zh-hant-tw')).toEqual({ language: 'zh', locale: 'zh-Hant-TW' });
    expect(languageTag('pt_BR')).toEqual({ language: 'pt', locale: 'pt-BR' });
    expect(languageTag('fr')).toEqual({ language: 'fr', locale: 'fr' });
    expect(languageTag('es-419')).toEqual({ language: 'es', locale: 'es-419' });
    expect(languageTag('not a tag')).toEqual({ language: null, locale: null });
  });

  it('airbnb zh-TW and booking en-gb keep their locale; booking "xu" is unknown', () => {
    const airbnb = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/replay/airbnb/api/v3/StaysPdpReviewsQuery/StaysPdpReviewsQuery/U3RheUxpc3Rpbmc6OTEwMDAwMDAx.json'), 'utf8'));
    const container = airbnb.data.presentation.stayProductDetailPage.reviews;
    const zh = { ...container.reviews[0], language: 'zh-TW' };
    const page = parseReviewsPage({ data: { presentation: { stayProductDetailPage: { reviews: { ...container, reviews: [zh] } } } } }, '910000001', new FieldWarnings('airbnb'));
    expect(page!.reviews[0]).toMatchObject({ language: 'zh', locale: 'zh-TW' });
    const card = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/replay/booking/dml/graphql/ReviewList.json'), 'utf8')).data.reviewListFrontend.reviewCard[0];
    const w = new FieldWarnings('booking');
    expect(parseReviewCard({ ...card, textDetails: { ...card.textDetails, lang: 'en-gb' } }, '1', w)).toMatchObject({ language: 'en', locale: 'en-GB' });
    expect(parseReviewCard({ ...card, textDetails: { ...card.textDetails, lang: 'xu' } }, '1', w)).toMatchObject({ language: null, locale: null });
  });
});
