import type { Property } from '../../../domain/model/property.js';
import { compositeId, RATING_SCALE } from '../../../domain/platforms.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';
import { mapAmenities, propertyTypeOf, unitFacts } from './amenities.js';
import { entityUrl, isPropertyToken } from './guards.js';
import { stayPrice } from './rates.js';

/**
 * Pure mapping of one Google Hotels property, as SerpApi shapes it both in search results
 * (`properties[]`) and in a property details answer (the top-level object), to the unified
 * Property. What Google does not state is null with a warning; nothing is made up.
 */

export const PLATFORM = 'google' as const;

/** The stay asked for: the item's `total_rate` becomes its stay price. null: an undated answer, no price. */
export interface PriceContext {
  currency: string;
  nights: number;
}

const NOT_A_COUNTRY = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ', 'XA', 'XB', 'AC', 'CP', 'DG', 'EA', 'IC', 'TA']);
/** Names Google prints in addresses that differ from the runtime's English region names. */
const ADDRESS_NAMES: Readonly<Record<string, string>> = {
  usa: 'US', uk: 'GB', 'czech republic': 'CZ', turkey: 'TR', 'hong kong': 'HK', macau: 'MO', macao: 'MO', myanmar: 'MM', 'bosnia and herzegovina': 'BA',
};
let countryByName: Map<string, string> | null = null;

/** ISO 3166-1 alpha-2 code of an English country name ("United Kingdom" -> GB), from the runtime's ICU data. */
function countryCode(name: string): string | null {
  if (countryByName === null) {
    countryByName = new Map(Object.entries(ADDRESS_NAMES));
    const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        // Deprecated aliases (UK, SU, DD) share their successor's name; only current codes count.
        const canonical = Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`;
        const display = canonical && !NOT_A_COUNTRY.has(code) ? names.of(code) : undefined;
        if (display) countryByName.set(display.toLowerCase(), code);
      }
    }
  }
  return countryByName.get(name.trim().toLowerCase()) ?? null;
}

/** The country of a Google address, only when its last part is exactly a country's English name. */
export function countryFromAddress(address: string | null): string | null {
  if (address === null) return null;
  const last = address.split(',').pop();
  return last === undefined ? null : countryCode(last);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function imagesOf(raw: unknown): string[] | null {
  if (!Array.isArray(raw)) return null;
  const urls = raw.map((i) => str(dig(i, 'original_image')) ?? str(dig(i, 'thumbnail'))).filter((u): u is string => u !== null && /^https?:\/\//.test(u));
  return urls.length ? urls : null;
}

function nonNegativeInt(value: unknown): number | null {
  const n = num(value);
  return n !== null && Number.isInteger(n) && n >= 0 ? n : null;
}

/**
 * The token of a details answer (one property): SerpApi puts it at the top level, but some
 * answers echo it only in `search_parameters` (issue 22 item 5). Both say the same thing.
 */
export function detailsToken(json: unknown): string | null {
  return str(dig(json, 'property_token')) ?? str(dig(json, 'search_parameters', 'property_token'));
}

/**
 * One property, or null (with a warning) when it has no token or no name, which no item can
 * lack. Hotels carry no unit facts (occupancy, bedrooms, bathrooms) and Google names no hosts;
 * those are null with a warning saying so. Star classes exist for hotels only. `knownToken`: the
 * token a details answer names elsewhere (its search_parameters, the request it answered).
 */
export function parseProperty(raw: unknown, ctx: PriceContext | null, w: FieldWarnings, knownToken: string | null = null): Property | null {
  const token = str(dig(raw, 'property_token')) ?? knownToken;
  const name = str(dig(raw, 'name'));
  if (token === null || !isPropertyToken(token) || name === null) {
    w.add('item_skipped', `A google property without a valid property_token or name was left out.`);
    return null;
  }
  const info = strings(dig(raw, 'essential_info'));
  const type = propertyTypeOf(dig(raw, 'type'), info);
  if (type === null) w.missing('propertyType', `google type "${String(dig(raw, 'type') ?? '')}" is not known; reported as other`);
  const isHotel = type === 'hotel';
  const facts = unitFacts(info);
  const unitWhy = isHotel ? 'google does not state it for hotels' : undefined;
  const lat = num(dig(raw, 'gps_coordinates', 'latitude'));
  const lng = num(dig(raw, 'gps_coordinates', 'longitude'));
  const country = countryFromAddress(str(dig(raw, 'address')));
  const stars = num(dig(raw, 'extracted_hotel_class'));

  return {
    id: compositeId(PLATFORM, token),
    platform: PLATFORM,
    platformListingId: token,
    url: entityUrl(token),
    name,
    propertyType: type ?? 'other',
    location: {
      lat: lat ?? w.missing('location.lat'),
      lng: lng ?? w.missing('location.lng'),
      city: w.missing('location.city', 'google gives no structured address'),
      region: w.missing('location.region', 'google gives no structured address'),
      country: country ?? w.missing('location.country', 'no country name at the end of the address'),
    },
    starRating: stars ?? (isHotel ? w.missing('starRating') : null),
    guestRating: num(dig(raw, 'overall_rating')) ?? w.missing('guestRating'),
    ratingScale: RATING_SCALE[PLATFORM],
    reviewCount: nonNegativeInt(dig(raw, 'reviews')) ?? w.missing('reviewCount'),
    maxOccupancy: facts.maxOccupancy ?? w.missing('maxOccupancy', unitWhy),
    bedrooms: facts.bedrooms ?? w.missing('bedrooms', unitWhy),
    bathrooms: facts.bathrooms ?? w.missing('bathrooms', unitWhy),
    amenities: mapAmenities(dig(raw, 'amenities')) ?? w.missing('amenities', 'google listed no amenities'),
    images: imagesOf(dig(raw, 'images')) ?? w.missing('images', 'google listed no images'),
    host: w.missing('host', 'google does not name hosts'),
    price: ctx === null ? null : stayPrice(raw, ctx.nights, ctx.currency, w, name),
  };
}
