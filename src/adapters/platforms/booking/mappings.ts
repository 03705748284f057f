import type { PropertyType } from '../../../domain/model/property.js';
import type { FeeKind } from '../../../domain/model/rates.js';

/**
 * Booking.com's accommodation type ids (`basicPropertyData.accommodationTypeId`, also the `ht_id`
 * search filter) mapped onto PROPERTY_TYPES. Those marked "seen" were checked against the
 * recorded Malta search (names and unit types agree); the others are ids of Booking.com's own
 * property-type filter. Ids not listed map to "other" with a warning, never to a guess.
 */
export const ACCOMMODATION_TYPES: Readonly<Record<number, PropertyType>> = {
  201: 'apartment', // Apartment (seen: "Entire apartment" units)
  203: 'other', // Hostel (seen)
  204: 'hotel', // Hotel (seen)
  205: 'hotel', // Motel
  206: 'hotel', // Resort (seen)
  208: 'other', // Bed and breakfast (seen)
  213: 'villa', // Villa
  216: 'other', // Guest house (seen)
  219: 'hotel', // Aparthotel (seen)
  220: 'house', // Holiday home (seen: "Entire holiday home")
  222: 'other', // Homestay (seen)
  228: 'cottage', // Chalet
};

/**
 * Booking.com's broad "holiday home" type (220) covers every whole-home rental; the name the host
 * gives it says which kind ("2BR Condo", "Seaview Apartment", "Villa Rosa"). The name refines
 * that type only where it names a kind of the taxonomy; other types are taken as Booking.com states them.
 */
const NAMED_KINDS: readonly [RegExp, PropertyType][] = [
  [/\b(condo|condominium|apartment|apt|flat|studio|penthouse|loft)s?\b/i, 'apartment'],
  [/\bvillas?\b/i, 'villa'],
  [/\b(cottage|chalet|cabin)s?\b/i, 'cottage'],
];

export function refineByName(typeId: number, mapped: PropertyType, name: string): PropertyType {
  if (typeId !== 220) return mapped;
  return NAMED_KINDS.find(([re]) => re.test(name))?.[1] ?? mapped;
}

/** Customer types of ReviewCards, in the words the service uses for trip types. */
export const TRIP_TYPES: Readonly<Record<string, string>> = {
  FAMILIES: 'family',
  COUPLES: 'couple',
  SOLO_TRAVELLERS: 'solo',
  GROUP_OF_FRIENDS: 'friends',
  BUSINESS_TRAVELLERS: 'business',
};


/**
 * The excluded-charge types whose nature the recorded answers show (ids are Booking.com's
 * front-end `chargeType`, not the connectivity API's codes):
 * - 12: a per-person-per-night levy, EUR 3.50 for seven person-nights in Malta (its eco
 *   contribution) — a tax;
 * - 21: a percentage charge of 6-7% of the stay (Malta's VAT), nearly always INCLUDED — a tax;
 * - 23: a per-stay charge of exactly 7% of the stay on rates without a type-21 charge — a tax.
 * Other types (22, 148, ...) are fee lines of kind other, named by their type, with a warning.
 * 12 is a levy per guest and night, which is what a city (tourist) tax is.
 */
export const CHARGE_TYPES: Readonly<Record<number, { kind: FeeKind; name: string }>> = {
  12: { kind: 'city_tax', name: 'Tourist levy' },
  21: { kind: 'tax', name: 'VAT' },
  23: { kind: 'tax', name: 'Tax' },
};

/** How Booking.com charges a line (`chargeMode`), in words for its name. */
export const CHARGE_MODES: Readonly<Record<string, string>> = {
  PER_PERSON_PER_NIGHT: 'per person per night',
  PER_NIGHT: 'per night',
  PER_STAY: 'per stay',
  PER_PERSON_PER_STAY: 'per person per stay',
  PERCENTAGE: 'percentage of the price',
};
