import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePropertyInfo } from '../../src/adapters/platforms/expedia/parse-property-info.js';
import { Property } from '../../src/domain/model/property.js';
import { LegFailure } from '../../src/domain/ports/platform.js';

/** Expedia Group `PropertyInfo` (recorded sample; the reader is not served by any adapter). */
// Beside the checkout (../shared), or beside its parent for a worktree.
const FILE = 'upstream-samples/expedia/graphql-propertyInfo-merperle-hon-tam-hotels4-rapidapi.json';
const SAMPLE = [path.resolve(import.meta.dirname, '../../../shared', FILE), path.resolve(import.meta.dirname, '../../../../shared', FILE)].find(existsSync) ?? FILE;

it('expedia propertyInfo sample: present, or skipped with a reason', () => {
  if (!existsSync(SAMPLE)) console.warn(`skipping the propertyInfo tests: ${SAMPLE} is absent`);
  expect(true).toBe(true);
});

describe.runIf(existsSync(SAMPLE))('expedia propertyInfo (MerPerle Hon Tam Resort)', () => {
  const json = existsSync(SAMPLE) ? JSON.parse(readFileSync(SAMPLE, 'utf8')) : null;

  it('reads the display strings exactly, stars from the star icon, 225 photos, amenities by whole text', () => {
    const { value, warnings } = parsePropertyInfo(json, '2540761');
    expect(Property.omit({ url: true }).parse(value)).toEqual(value);
    expect(value).toMatchObject({
      id: 'stays_expedia_2540761',
      name: 'MerPerle Hon Tam Resort',
      location: { lat: 12.178097, lng: 109.237653, city: 'Nha Trang', region: 'Khanh Hoa', country: null },
      starRating: 5,
      guestRating: 8.2,
      ratingScale: 10,
      reviewCount: 168,
      price: null,
    });
    expect(value.images).toHaveLength(225);
    expect(value.amenities).toEqual(expect.arrayContaining(['wifi', 'air_conditioning', 'free_parking', 'restaurant', 'bar', 'room_service', 'front_desk_24h', 'bbq_grill', 'airport_shuttle', 'tv']));
    expect(value.amenities).not.toContain('pets_allowed');
    expect(warnings.find((w) => w.message.startsWith('location.country'))?.message).toMatch(/VNM/);
  });

  it('an answer for another property is refused', () => {
    expect(() => parsePropertyInfo(json, '1')).toThrow(new LegFailure('failed', 'expedia answered for listing 2540761, not 1'));
  });
});

/**
 * Issue 25 item 6: Vrbo beyond search, through the Expedia Group GraphQL family, only if a parser
 * test on real payloads holds. It does not: the recorded `propertyInfo` is a Hotels.com hotel
 * through a third-party API (RapidAPI hotels4), undated and without offers, and nothing recorded is
 * an answer of Vrbo's own graphql for a Vrbo property. So the live vrbo cell stays closed; the
 * README names the missing formats.
 */
describe.runIf(existsSync(SAMPLE))('expedia propertyInfo as a stand-in for vrbo (issue 25 item 6)', () => {
  const json = existsSync(SAMPLE) ? (JSON.parse(readFileSync(SAMPLE, 'utf8')) as Record<string, unknown>) : {};
  const text = JSON.stringify(json);

  it('is a hotel answer without offers: nothing to price, and no sign of a Vrbo property', () => {
    const { value } = parsePropertyInfo(json, '2540761');
    // A resort with hotel stars (vacation rentals have none), not a Vrbo home.
    expect([value.starRating, value.name]).toEqual([5, 'MerPerle Hon Tam Resort']);
    // No dated offers of any shape: no price can be read from it.
    for (const key of ['propertyOffers', 'ratePlans', 'priceDetails', 'displayPrice', 'lead']) expect(text).not.toContain(`"${key}"`);
    // Nothing in it names Vrbo (or HomeAway), its URLs or its ids.
    expect(text.toLowerCase()).not.toMatch(/vrbo|homeaway/);
  });

  it('so live vrbo serves search only', async () => {
    const { createVrboAdapter } = await import('../../src/adapters/platforms/vrbo/index.js');
    const vrbo = createVrboAdapter({} as never);
    expect([...vrbo.operations]).toEqual(['search']);
  });
});
