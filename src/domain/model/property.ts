import { z } from 'zod';
import { Platform } from './common.js';
import { PriceBasis, TOTAL_PRICE_DESCRIPTION } from './basis.js';
import { ReviewSummary } from './review-summary.js';
import { CONTEXT_DESCRIPTION, FeeItem, OFFERS_DESCRIPTION, PriceContext, RateOffer } from './rates.js';

export { PRICE_BASES, PriceBasis, TOTAL_PRICE_DESCRIPTION } from './basis.js';

export const PROPERTY_TYPES = ['hotel', 'apartment', 'house', 'villa', 'cottage', 'other'] as const;
export const PropertyType = z.enum(PROPERTY_TYPES).meta({ id: 'PropertyType' });
export type PropertyType = z.infer<typeof PropertyType>;

/** The canonical amenity taxonomy (snake_case). Platform-specific labels are mapped onto it. */
export const AMENITIES = [
  'wifi', 'kitchen', 'washer', 'dryer', 'air_conditioning', 'heating', 'pool', 'hot_tub', 'free_parking',
  'ev_charger', 'gym', 'breakfast', 'restaurant', 'bar', 'room_service', 'front_desk_24h', 'elevator',
  'workspace', 'tv', 'balcony', 'garden', 'bbq_grill', 'fireplace', 'sea_view', 'beachfront',
  'pets_allowed', 'wheelchair_accessible', 'crib', 'smoke_alarm', 'spa', 'airport_shuttle',
] as const;
export const Amenity = z.enum(AMENITIES).meta({ id: 'Amenity' });
export type Amenity = z.infer<typeof Amenity>;

export const Fees = z
  .object({
    cleaning: z.number().nullable(),
    service: z.number().nullable(),
    taxes: z.number().nullable(),
    items: z
      .array(FeeItem)
      .describe('Every fee and tax the platform states, line by line (issue 25). cleaning, service and taxes are the sums of the items of kind cleaning, service, and tax plus city_tax (null when there is none); resort and other items are in no sum. [] when the platform states no line.'),
  })
  .meta({ id: 'Fees', description: 'null: the platform does not state this fee separately, or it could not be extracted (see warnings). Taxes are null when the price is before taxes or its basis is unknown.' });
export type Fees = z.infer<typeof Fees>;

export const StayPrice = z
  .object({
    currency: z.string(),
    basis: PriceBasis,
    nightlyPrice: z.number().describe('Accommodation subtotal divided by nights, before fees and taxes.'),
    totalPrice: z.number().describe(TOTAL_PRICE_DESCRIPTION),
    nights: z.number().int(),
    fees: Fees,
    offers: z
      .array(RateOffer)
      .optional()
      .describe(`${OFFERS_DESCRIPTION} Present on a dated listing (get_listing with checkIn and checkOut); absent on search items.`),
    context: PriceContext.nullable()
      .optional()
      .describe(`${CONTEXT_DESCRIPTION} Present on a dated listing; absent on search items.`),
  })
  .meta({ id: 'StayPrice' });
export type StayPrice = z.infer<typeof StayPrice>;

export const Location = z
  .object({
    lat: z.number().nullable(),
    lng: z.number().nullable(),
    city: z.string().nullable(),
    region: z.string().nullable(),
    country: z.string().nullable().describe('ISO 3166-1 alpha-2 country code.'),
  })
  .meta({ id: 'Location' });

/** A place the platform names near a listing (issue 25 item 1), as the platform states it. */
export const NearbyPlace = z
  .object({
    name: z.string(),
    kind: z.string().nullable().describe('The kind the platform gives the place ("Point of interest", "Airport", "Restaurant"); null when it gives none.'),
    distanceKm: z.number().nullable().describe('Great-circle km from the listing, 2 decimals; null when the platform gives the place no coordinates.'),
    travelTime: z
      .array(z.object({ mode: z.string().describe('As the platform names it: "Walking", "Taxi", "Public transport".'), minutes: z.number().int() }))
      .describe('Travel times the platform states, by mode; [] when it states none. A time whose text cannot be read ("about 5", "5-10 min") is left out, and a field_unavailable warning names it.'),
  })
  .meta({ id: 'NearbyPlace' });
export type NearbyPlace = z.infer<typeof NearbyPlace>;

export const Host = z.object({ name: z.string().nullable(), isSuperhost: z.boolean().nullable() }).meta({ id: 'Host' });

export const Property = z
  .object({
    id: z.string().describe('stays_<platform>_<platformListingId>: pass it, with platform, wherever a listing id is taken.'),
    platform: Platform,
    platformListingId: z.string(),
    url: z.string(),
    name: z.string(),
    propertyType: PropertyType,
    location: Location,
    starRating: z.number().nullable(),
    guestRating: z.number().nullable(),
    ratingScale: z.union([z.literal(5), z.literal(10)]),
    reviewCount: z.number().int().nullable(),
    maxOccupancy: z.number().int().nullable(),
    bedrooms: z.number().int().nullable(),
    bathrooms: z.number().nullable(),
    amenities: z.array(Amenity).nullable().describe('null: amenities could not be extracted; [] only when the platform states there are none.'),
    images: z.array(z.string()).nullable(),
    host: Host.nullable(),
    price: StayPrice.nullable().describe('Present when dates were supplied.'),
    distanceKm: z
      .number()
      .nullable()
      .optional()
      .describe('search: great-circle km from the centre searched (the "lat,lng" location, the bbox centre, or the place the platform located), 2 decimals; null with a distance_unavailable warning when the item or the centre has no coordinates. Absent outside search.'),
    nearby: z
      .array(NearbyPlace)
      .nullable()
      .optional()
      .describe('listing: places the platform names near the listing, nearest first; null with a field_unavailable warning when the platform names none. Absent in search items.'),
    reviewSummary: ReviewSummary.nullable()
      .optional()
      .describe('listing: the reviews\' verdict as the platform states it on the listing (basis platform): count, average, histogram, category scores and the topics reviewers mention; a part it does not state is null, and the whole null when it states no total, each with a field_unavailable warning. The same object as meta.reviewSummary of reviews with summary=true. Absent in search items.'),
    alsoOn: z
      .array(z.object({ platform: Platform, platformListingId: z.string(), price: z.number().nullable().describe('That listing\'s totalPrice, in the same currency and on its own basis.') }))
      .optional()
      .describe('search: the same home on other platforms (same place within 50 m, similar name, same bedrooms and guests), folded into this item. Absent with dedupe=false.'),
  })
  .meta({ id: 'Property' });
export type Property = z.infer<typeof Property>;

/**
 * The fields each operation's items can carry, for `fields=` (issue 34): a search item never has
 * the listing's nearby or reviewSummary, a listing never has search's distanceKm or alsoOn, so
 * neither list offers a path its items lack.
 */
export const SearchItemFields = Property.omit({ nearby: true, reviewSummary: true });
export const ListingFields = Property.omit({ distanceKm: true, alsoOn: true });
