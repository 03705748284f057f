import type { Amenity, PropertyType } from '../../../domain/model/property.js';

/**
 * Airbnb's vocabularies mapped onto the unified schema: amenity titles (English, as in
 * `AMENITIES_DEFAULT`), property-type labels ("Entire rental unit", "Apartment in …", "Hotel in …")
 * and the numeric amenity ids of the search filter. Anything not in these tables is dropped
 * (amenities) or `other` with a warning (property types): never guessed.
 */
const AMENITY_TITLES: readonly [RegExp, Amenity][] = [
  [/^(fast )?wi-?fi\b/i, 'wifi'],
  [/^(full )?kitchen$/i, 'kitchen'],
  [/^(free |paid )?washer\b/i, 'washer'],
  [/^(free |paid )?dryer\b/i, 'dryer'],
  [/^((central|portable|window) )?(air conditioning|ac unit)\b|^split[- ]type ductless/i, 'air_conditioning'],
  [/^((central|radiant|portable) )?heating\b/i, 'heating'],
  [/^((private|shared) )?((indoor|outdoor|infinity|rooftop|heated|saltwater) )*pool( –| -|$)/i, 'pool'],
  [/^((private|shared) )?hot tub\b/i, 'hot_tub'],
  [/^free\b.*\b(parking|garage|carport)\b/i, 'free_parking'],
  [/^ev charger\b/i, 'ev_charger'],
  [/^((private|shared) )?gym\b/i, 'gym'],
  [/^breakfast\b/i, 'breakfast'],
  [/^restaurant\b/i, 'restaurant'],
  [/^bar$/i, 'bar'],
  [/^room service\b/i, 'room_service'],
  [/^24-hour front desk\b/i, 'front_desk_24h'],
  [/^(elevator|lift)$/i, 'elevator'],
  [/^dedicated workspace\b/i, 'workspace'],
  [/^(\d+ inch )?(hd)?tv\b/i, 'tv'],
  [/\bbalcony\b/i, 'balcony'],
  [/^((private|shared) )?(back )?(garden|backyard)\b(?!.*\bview\b)/i, 'garden'],
  [/^(bbq grill|barbecue)\b/i, 'bbq_grill'],
  [/\bfireplace\b/i, 'fireplace'],
  [/^(sea|ocean|beach) view\b/i, 'sea_view'],
  [/\bbeachfront\b/i, 'beachfront'],
  [/^pets allowed\b/i, 'pets_allowed'],
  [/\bwheelchair\b/i, 'wheelchair_accessible'],
  [/^(crib|cot)\b|\btravel (crib|cot)\b/i, 'crib'],
  [/^smoke (alarm|detector)\b/i, 'smoke_alarm'],
  [/^spa\b/i, 'spa'],
  [/\bairport shuttle\b/i, 'airport_shuttle'],
];

export function amenityOf(title: string): Amenity | null {
  const t = title.trim();
  return AMENITY_TITLES.find(([re]) => re.test(t))?.[1] ?? null;
}

/**
 * Search-filter amenity ids (`amenities` raw parameter), limited to the ids that the recorded live
 * PDP's `eventDataLogging.amenities` agrees with (present: 4 wifi, 5 AC, 7 pool, 8 kitchen,
 * 9 free parking, 27 fireplace, 33 washer, 47 workspace, 99 BBQ grill; absent where that listing
 * says "not included": 25 hot tub, 30 heating, 34 dryer, 35 smoke alarm). Any other canonical
 * amenity cannot be filtered on Airbnb search.
 */
export const SEARCH_AMENITY_IDS: Readonly<Partial<Record<Amenity, number>>> = {
  wifi: 4, air_conditioning: 5, pool: 7, kitchen: 8, free_parking: 9, hot_tub: 25, fireplace: 27, heating: 30,
  washer: 33, dryer: 34, smoke_alarm: 35, workspace: 47, bbq_grill: 99,
};

const TYPE_WORDS: readonly [RegExp, PropertyType][] = [
  [/\bvilla\b/i, 'villa'],
  [/\bcottage\b/i, 'cottage'],
  [/\b(hotel|resort|aparthotel|hostel room|ryokan)\b/i, 'hotel'],
  [/\b(private|shared) room\b|\broom in\b/i, 'other'],
  [/\b(rental unit|apartment|condo|condominium|loft|flat|serviced apartment)\b/i, 'apartment'],
  [/\b(home|house|townhouse|bungalow|guesthouse|guest suite)\b/i, 'house'],
];

/** "Entire rental unit" → apartment, "Hotel in 3rd Arrondissement" → hotel; null when no word is known. */
export function propertyTypeOf(label: string): PropertyType | null {
  return TYPE_WORDS.find(([re]) => re.test(label))?.[1] ?? null;
}

/** A card line of the form "<Type> in <place>": the type label and the place, or null. */
export function typeAndPlace(line: unknown): { type: string; place: string } | null {
  if (typeof line !== 'string') return null;
  const m = /^(.{2,60}?) in (.+)$/.exec(line.trim());
  if (!m || propertyTypeOf(m[1]!) === null) return null;
  return { type: m[1]!, place: m[2]! };
}
