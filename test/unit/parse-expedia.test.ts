import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePropertyInfo } from '../../src/adapters/platforms/expedia/parse-property-info.js';
import { Property } from '../../src/domain/model/property.js';
import { LegFailure } from '../../src/domain/ports/platform.js';

/** Expedia Group `PropertyInfo` (recorded sample; the reader is not served by any adapter). */
const SAMPLE = path.resolve(import.meta.dirname, '../../../shared/upstream-samples/expedia/graphql-propertyInfo-merperle-hon-tam-hotels4-rapidapi.json');

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
