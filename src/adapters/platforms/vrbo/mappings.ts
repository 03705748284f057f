import type { Amenity, PropertyType } from '../../../domain/model/property.js';

/**
 * Vrbo's own vocabularies mapped onto the unified schema. Anything not in these tables is dropped
 * (amenities) or reported as `other` with a warning (property types): never guessed.
 */

/**
 * Legacy SERP `amenitiesBadges[].id` → canonical amenities. Ids and names as recorded in the
 * Chicago SERP sample (ids are locale-independent; names are translated on other Vrbo sites).
 * An empty list is a badge we know and deliberately do not map:
 * 11 "No Smoking", 19 "Kids Welcome", 22 "Bed linens provided" (no canonical value);
 * 12 "Internet" (wired or wireless is not stated, so not `wifi`); 14 "Accessible" (which kind of
 * access is not stated, so not `wheelchair_accessible`); 15 "Satellite or Cable" (a TV service,
 * not the set); 20 "Parking" (free or paid is not stated, so not `free_parking`).
 * 17 "Washer & Dryer" names both machines.
 */
const BADGE_IDS = new Map<string, readonly Amenity[]>([
  ['7', ['hot_tub']],
  ['8', ['pool']],
  ['9', ['pets_allowed']],
  ['10', ['air_conditioning']],
  ['11', []],
  ['12', []],
  ['13', ['tv']],
  ['14', []],
  ['15', []],
  ['16', ['fireplace']],
  ['17', ['washer', 'dryer']],
  ['18', ['heating']],
  ['19', []],
  ['20', []],
  ['22', []],
  ['23', ['garden']],
  ['24', ['kitchen']],
]);

/** English badge names, used only when a badge's id is not one of the known ids above. */
const BADGE_NAMES = new Map<string, readonly Amenity[]>([
  ['hot tub', ['hot_tub']],
  ['pool', ['pool']],
  ['pets welcome', ['pets_allowed']],
  ['pets allowed', ['pets_allowed']],
  ['air conditioning', ['air_conditioning']],
  ['tv', ['tv']],
  ['fireplace', ['fireplace']],
  ['washer & dryer', ['washer', 'dryer']],
  ['washer', ['washer']],
  ['dryer', ['dryer']],
  ['heater', ['heating']],
  ['heating', ['heating']],
  ['garden', ['garden']],
  ['kitchen', ['kitchen']],
  ['wifi', ['wifi']],
  ['wi-fi', ['wifi']],
  ['free wifi', ['wifi']],
  ['elevator', ['elevator']],
  ['balcony', ['balcony']],
  ['grill', ['bbq_grill']],
  ['bbq grill', ['bbq_grill']],
  ['gym', ['gym']],
  ['ev charger', ['ev_charger']],
  ['crib', ['crib']],
  ['free parking', ['free_parking']],
  ['ocean view', ['sea_view']],
  ['sea view', ['sea_view']],
  ['beachfront', ['beachfront']],
]);

/** Canonical amenities of a listing's badges, in taxonomy-first-seen order, without duplicates. */
export function mapAmenityBadges(badges: readonly unknown[]): Amenity[] {
  const out = new Set<Amenity>();
  for (const badge of badges) {
    if (badge === null || typeof badge !== 'object') continue;
    const { id, name } = badge as { id?: unknown; name?: unknown };
    const byId = typeof id === 'string' || typeof id === 'number' ? BADGE_IDS.get(String(id)) : undefined;
    const mapped = byId ?? (typeof name === 'string' ? BADGE_NAMES.get(name.trim().toLowerCase()) : undefined) ?? [];
    for (const a of mapped) out.add(a);
  }
  return [...out];
}

/**
 * Vrbo `propertyType` labels → PROPERTY_TYPES. Labels that name a kind of place the taxonomy has
 * no word for map to `other` on purpose; a label missing from this table is reported.
 */
const PROPERTY_TYPE_MAP = new Map<string, PropertyType>([
  ['house', 'house'],
  ['townhome', 'house'],
  ['townhouse', 'house'],
  ['private vacation home', 'house'],
  ['farmhouse', 'house'],
  ['condo', 'apartment'],
  ['condominium', 'apartment'],
  ['apartment', 'apartment'],
  ['studio', 'apartment'],
  ['corporate apartment', 'apartment'],
  ['villa', 'villa'],
  ['cottage', 'cottage'],
  ['cabin', 'cottage'],
  ['bungalow', 'cottage'],
  ['chalet', 'cottage'],
  ['hotel', 'hotel'],
  ['guest house/pension', 'other'],
  ['bed & breakfast', 'other'],
  ['condo hotel', 'other'],
  ['resort', 'other'],
  ['lodge', 'other'],
  ['boat', 'other'],
  ['houseboat', 'other'],
  ['yacht', 'other'],
  ['castle', 'other'],
  ['barn', 'other'],
  ['mobile home', 'other'],
  ['recreational vehicle', 'other'],
  ['campground', 'other'],
  ['tower', 'other'],
]);

/** The canonical type of a Vrbo label, or null when the label is not in the table. */
export function mapPropertyType(label: string): PropertyType | null {
  return PROPERTY_TYPE_MAP.get(label.trim().toLowerCase()) ?? null;
}
