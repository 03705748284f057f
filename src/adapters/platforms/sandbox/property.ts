import type { Amenity, Property, PropertyType } from '../../../domain/model/property.js';
import { RATING_SCALE, compositeId } from '../../../domain/platforms.js';
import { CITIES } from './gazetteer.js';
import { listingId, type Placement, type SandboxPlatform } from './ids.js';
import { hash32, rng, type Rng } from './random.js';

/** A sandbox listing plus the hidden figures its prices and calendars derive from. */
export interface SandboxListing {
  property: Property;
  /** Nightly base rate in USD. */
  baseRate: number;
  /** Fixed rank for the `recommended` order. */
  rank: number;
}

const TYPE_WEIGHTS: Record<SandboxPlatform, PropertyType[]> = {
  airbnb: ['apartment', 'apartment', 'apartment', 'house', 'house', 'villa', 'cottage', 'other'],
  booking: ['hotel', 'hotel', 'hotel', 'apartment', 'apartment', 'house', 'other'],
  vrbo: ['house', 'house', 'villa', 'villa', 'cottage', 'apartment'],
  google: ['hotel'],
};

const TYPE_RATE: Record<PropertyType, number> = { hotel: 1, apartment: 0.85, house: 1.4, villa: 2.6, cottage: 1.1, other: 0.7 };
const BEDROOMS: Record<PropertyType, [number, number]> = { hotel: [1, 1], apartment: [0, 3], house: [2, 5], villa: [3, 7], cottage: [1, 3], other: [1, 2] };

const COMMON: Amenity[] = ['wifi', 'heating', 'smoke_alarm', 'tv', 'air_conditioning', 'elevator', 'wheelchair_accessible'];
const HOME: Amenity[] = ['kitchen', 'washer', 'dryer', 'workspace', 'balcony', 'free_parking', 'crib', 'pets_allowed', 'fireplace', 'bbq_grill', 'garden', 'ev_charger'];
const HOTEL: Amenity[] = ['breakfast', 'restaurant', 'bar', 'room_service', 'front_desk_24h', 'gym', 'spa', 'airport_shuttle'];
const LEISURE: Amenity[] = ['pool', 'hot_tub', 'sea_view', 'beachfront'];

const HOTEL_WORDS = ['Hotel', 'Boutique Hotel', 'Grand Hotel', 'Suites', 'Inn', 'Palace Hotel'];
const HOTEL_NAMES = ['Aurora', 'Bellavista', 'Central', 'Harbour', 'Lumen', 'Marquês', 'Oriente', 'Riverside', 'Solar', 'Vértice', 'Zenith', 'Atlântico'];
const HOME_ADJ = ['Sunny', 'Quiet', 'Bright', 'Charming', 'Modern', 'Cosy', 'Spacious', 'Elegant', 'Rustic', 'Airy'];
const HOSTS = ['Ana', 'Bruno', 'Carla', 'David', 'Elena', 'Farid', 'Greta', 'Hiro', 'Inês', 'Jonas', 'Kemi', 'Luca', 'Maya', 'Nikos', 'Olga', 'Pedro'];

/**
 * What an `other` listing is called: the kinds the platforms' own types map to `other` (Booking's
 * guest house, B&B and homestay; Vrbo's guest house and B&B), never the word "other" itself.
 */
const OTHER_KINDS = ['guest house', 'bed and breakfast', 'homestay', 'guest suite'];

/** `seed` picks an `other` listing's kind apart from `r`, so the listing's other draws stay as they were. */
function nameFor(r: Rng, type: PropertyType, hood: string, bedrooms: number, seed: string): string {
  if (type === 'hotel') return `${r.pick(HOTEL_NAMES)} ${r.pick(HOTEL_WORDS)} ${hood}`;
  const adjective = r.pick(HOME_ADJ);
  if (type === 'other') return `${adjective} ${OTHER_KINDS[hash32(`kind:${seed}`) % OTHER_KINDS.length]} in ${hood}`;
  const size = bedrooms === 0 ? 'studio' : `${bedrooms}-bedroom ${type}`;
  return `${adjective} ${size} in ${hood}`;
}

function amenitiesFor(r: Rng, type: PropertyType): Amenity[] {
  const pool = type === 'hotel' ? [...COMMON, ...HOTEL, ...LEISURE] : [...COMMON, ...HOME, ...LEISURE];
  const chosen = new Set<Amenity>(['wifi', ...r.sample(pool, r.int(5, 12))]);
  if (type === 'villa' && r.chance(0.7)) chosen.add('pool');
  return [...chosen].sort();
}

function urlFor(platform: SandboxPlatform, id: string, country: string, name: string): string {
  const slug = name.toLowerCase().normalize('NFD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  switch (platform) {
    case 'airbnb': return `https://www.airbnb.com/rooms/${id}`;
    case 'booking': return `https://www.booking.com/hotel/${country.toLowerCase()}/${slug}.html`;
    case 'vrbo': return `https://www.vrbo.com/${id}`;
    case 'google': return `https://www.google.com/travel/hotels/entity/${id}`;
  }
}

function guestRating(r: Rng, platform: SandboxPlatform): number {
  return RATING_SCALE[platform] === 10 ? r.float(6.8, 9.7, 1) : platform === 'google' ? r.float(3.6, 4.9, 1) : r.float(4.3, 5, 2);
}

/**
 * Homes listed on several platforms (issue 16, cross-platform dedupe): every 5th vrbo listing and
 * every 15th booking listing of a city is the airbnb home of the same serial (same kind, name,
 * bedrooms, guests, coordinates within metres); prices, ratings and hosts stay each platform's.
 * This is the truth the dedupe rule is measured against.
 */
export function sandboxTwinOf(platform: SandboxPlatform, serial: number): 'airbnb' | null {
  if (platform === 'vrbo' && serial % 5 === 0) return 'airbnb';
  if (platform === 'booking' && serial % 15 === 0) return 'airbnb';
  return null;
}

/** The one listing a (platform, id) names: the same on every call. */
export function sandboxListing(platform: SandboxPlatform, id: string, at: Placement): SandboxListing {
  const city = CITIES[at.city]!;
  const r = rng(`${platform}:${city.name}:${at.serial}`);
  const type = r.pick(TYPE_WEIGHTS[platform]);
  const [minBed, maxBed] = BEDROOMS[type];
  const bedrooms = r.int(minBed, maxBed);
  const hood = r.pick(city.neighbourhoods);
  const name = nameFor(r, type, hood, bedrooms, `${platform}:${id}`);
  const reviewCount = r.chance(0.06) ? 0 : r.int(3, 2400);
  const imageCount = r.int(5, 12);
  const isHotel = type === 'hotel';
  const property: Property = {
    id: compositeId(platform, id),
    platform,
    platformListingId: id,
    url: urlFor(platform, id, city.country, name),
    name,
    propertyType: type,
    location: {
      lat: Number((city.lat + r.float(-0.04, 0.04, 5)).toFixed(5)),
      lng: Number((city.lng + r.float(-0.05, 0.05, 5)).toFixed(5)),
      city: city.name,
      region: city.region,
      country: city.country,
    },
    starRating: isHotel ? r.int(2, 5) : null,
    guestRating: reviewCount === 0 ? null : guestRating(r, platform),
    ratingScale: RATING_SCALE[platform],
    reviewCount,
    maxOccupancy: isHotel ? r.int(2, 4) : Math.max(2, bedrooms * 2 + r.int(0, 2)),
    bedrooms,
    bathrooms: isHotel ? 1 : Math.max(1, Math.round(bedrooms * r.float(0.5, 1, 1))),
    amenities: amenitiesFor(r, type),
    images: Array.from({ length: imageCount }, (_, i) => `https://images.sandbox.example.com/${platform}/${encodeURIComponent(id)}/${i + 1}.jpg`),
    host: hostFor(r, platform, name, type),
    price: null,
  };
  const twin = sandboxTwinOf(platform, at.serial);
  if (twin) {
    sameHomeAs(property, sandboxListing(twin, listingId(twin, at.city, at.serial), at).property, r);
    // The home's own kind throughout: its URL, host and amenities, not those of the hotel it replaced.
    const home = rng(`${platform}:${city.name}:${at.serial}:home`);
    Object.assign(property, { url: urlFor(platform, id, city.country, property.name), host: hostFor(home, platform, property.name, property.propertyType), amenities: amenitiesFor(home, property.propertyType) });
  }
  const baseRate = Math.round(city.baseRate * TYPE_RATE[property.propertyType] * r.float(0.7, 1.5, 2) * (isHotel ? 0.6 + 0.15 * (property.starRating ?? 3) : 1));
  return { property, baseRate, rank: r.next() };
}

/** A cross-listed home: the features of the home itself, placed a few metres apart (platforms geocode differently). */
function sameHomeAs(property: Property, home: Property, r: Rng): void {
  const { name, propertyType, bedrooms, bathrooms, maxOccupancy, starRating } = home;
  Object.assign(property, { name, propertyType, bedrooms, bathrooms, maxOccupancy, starRating });
  property.location = {
    ...home.location,
    lat: Number(((home.location.lat ?? 0) + r.float(-0.0002, 0.0002, 5)).toFixed(5)),
    lng: Number(((home.location.lng ?? 0) + r.float(-0.0002, 0.0002, 5)).toFixed(5)),
  };
}

/**
 * A hotel on Booking.com is its own host; a home there is hosted by a person, as on the rental
 * platforms (picked by the name's hash, so the listing's draws from `r` stay as they were).
 */
function hostFor(r: Rng, platform: SandboxPlatform, name: string, type: PropertyType): Property['host'] {
  switch (platform) {
    case 'airbnb': return { name: r.pick(HOSTS), isSuperhost: r.chance(0.35) };
    case 'vrbo': return { name: r.pick(HOSTS), isSuperhost: null };
    case 'booking': return { name: type === 'hotel' ? name : HOSTS[hash32(`host:${name}`) % HOSTS.length]!, isSuperhost: null };
    case 'google': return null;
  }
}
