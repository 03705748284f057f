import type { Amenity, PropertyType } from '../../../domain/model/property.js';

/**
 * Google Hotels amenity labels (requested with hl=en, relayed verbatim by SerpApi) onto the
 * canonical taxonomy. Labels not listed are dropped, never guessed: "Parking ($)" is not free
 * parking, "Kitchen in some rooms" does not promise the guest a kitchen, "Beach access" is not
 * beachfront, "Kid-friendly" and "Full-service laundry" have no canonical value.
 */
const AMENITY_LABELS: Readonly<Record<string, Amenity>> = {
  'free wi-fi': 'wifi',
  'wi-fi': 'wifi',
  'air conditioning': 'air_conditioning',
  'airport shuttle': 'airport_shuttle',
  balcony: 'balcony',
  bar: 'bar',
  breakfast: 'breakfast',
  'free breakfast': 'breakfast',
  'breakfast ($)': 'breakfast',
  crib: 'crib',
  elevator: 'elevator',
  'fitness center': 'gym',
  'fitness centre': 'gym',
  'free parking': 'free_parking',
  heating: 'heating',
  'hot tub': 'hot_tub',
  pool: 'pool',
  'indoor pool': 'pool',
  'outdoor pool': 'pool',
  kitchen: 'kitchen',
  'kitchen in rooms': 'kitchen',
  'pet-friendly': 'pets_allowed',
  restaurant: 'restaurant',
  'room service': 'room_service',
  spa: 'spa',
  washer: 'washer',
  dryer: 'dryer',
  accessible: 'wheelchair_accessible',
  'wheelchair accessible': 'wheelchair_accessible',
  'cable tv': 'tv',
  tv: 'tv',
  'outdoor grill': 'bbq_grill',
  fireplace: 'fireplace',
  'ev charger': 'ev_charger',
};

/**
 * Canonical amenities of a Google `amenities[]` list, in first-seen order. null when the list is
 * absent or empty (Google not listing amenities is not a statement that there are none).
 */
export function mapAmenities(labels: unknown): Amenity[] | null {
  if (!Array.isArray(labels) || labels.length === 0) return null;
  const out: Amenity[] = [];
  for (const label of labels) {
    if (typeof label !== 'string') continue;
    const amenity = AMENITY_LABELS[label.trim().toLowerCase()];
    if (amenity && !out.includes(amenity)) out.push(amenity);
  }
  return out;
}

/** "Entire <kind>" of a vacation rental's essential_info, onto PROPERTY_TYPES. */
const RENTAL_KINDS: Readonly<Record<string, PropertyType>> = {
  apartment: 'apartment',
  condo: 'apartment',
  condominium: 'apartment',
  flat: 'apartment',
  loft: 'apartment',
  studio: 'apartment',
  'serviced apartment': 'apartment',
  house: 'house',
  home: 'house',
  townhouse: 'house',
  bungalow: 'house',
  villa: 'villa',
  cottage: 'cottage',
};

/**
 * Google's `type` ("hotel" or "vacation rental") refined by a rental's "Entire <kind>" line.
 * A rental that is not an entire unit of a known kind (a private room, a cabin) is `other`;
 * an unknown or absent `type` is null, for the caller to report.
 */
export function propertyTypeOf(type: unknown, essentialInfo: readonly string[]): PropertyType | null {
  const t = typeof type === 'string' ? type.trim().toLowerCase() : '';
  if (t === 'hotel') return 'hotel';
  if (t !== 'vacation rental') return null;
  for (const line of essentialInfo) {
    const kind = /^entire\s+(.+)$/i.exec(line.trim())?.[1]?.toLowerCase();
    if (kind) return RENTAL_KINDS[kind] ?? 'other';
  }
  return 'other';
}

export interface UnitFacts {
  maxOccupancy: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
}

/** "Sleeps 5", "2 bedrooms", "1.5 bathrooms" from a rental's essential_info; null where not stated. */
export function unitFacts(essentialInfo: readonly string[]): UnitFacts {
  const facts: UnitFacts = { maxOccupancy: null, bedrooms: null, bathrooms: null };
  for (const raw of essentialInfo) {
    const line = raw.trim();
    const sleeps = /^sleeps\s+(\d{1,3})$/i.exec(line);
    const bedrooms = /^(\d{1,3})\s+bedrooms?$/i.exec(line);
    const bathrooms = /^(\d{1,3}(?:\.\d)?)\s+(?:private\s+|shared\s+)?bathrooms?$/i.exec(line);
    if (sleeps) facts.maxOccupancy ??= Number(sleeps[1]);
    if (bedrooms) facts.bedrooms ??= Number(bedrooms[1]);
    if (bathrooms) facts.bathrooms ??= Number(bathrooms[1]);
  }
  return facts;
}
