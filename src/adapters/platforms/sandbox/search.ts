import { compareForSort } from '../../../domain/operations/merge.js';
import type { Property } from '../../../domain/model/property.js';
import type { SearchLegRequest, SearchLegResult, SearchQuery } from '../../../domain/ports/platform.js';
import type { Warning } from '../../../domain/model/common.js';
import { listingId, LISTINGS_PER_CITY, type SandboxPlatform } from './ids.js';
import type { SandboxListing } from './property.js';
import { stayPrice } from './stay-price.js';
import { basisWarning } from '../../../domain/price-basis.js';
import { hasTermsFilter, meetsTerms } from '../../../domain/rates/offer-terms.js';
import { offerTermsUnknown, termsFilterNames } from '../../../domain/rates/warnings.js';
import { sandboxOffersFor } from './rates.js';
import { LegGeo } from '../../../domain/geo/leg-geo.js';
import { CITIES } from './gazetteer.js';

function matches(q: SearchQuery, p: Property): boolean {
  const guests = q.occupancy.adults + q.occupancy.children;
  const capacity = (p.maxOccupancy ?? 0) * (p.propertyType === 'hotel' ? q.rooms : 1);
  if (capacity < guests) return false;
  if (q.propertyTypes.length && !q.propertyTypes.includes(p.propertyType)) return false;
  if (q.amenities.length && !q.amenities.every((a) => p.amenities?.includes(a))) return false;
  if (q.minBedrooms !== null && (p.bedrooms ?? -1) < q.minBedrooms) return false;
  if (q.minGuestRating !== null && (p.guestRating ?? -1) < q.minGuestRating) return false;
  const nightly = p.price?.nightlyPrice;
  if (q.priceMin !== null && (nightly === undefined || nightly < q.priceMin)) return false;
  if (q.priceMax !== null && (nightly === undefined || nightly > q.priceMax)) return false;
  return true;
}

/**
 * One platform's search over a city's sandbox catalogue: every filter applied, sorted as asked,
 * sliced at the leg's offset. Airbnb reports that amenity filters run after retrieval, as live does.
 */
export function searchCity(
  platform: SandboxPlatform,
  city: number,
  req: SearchLegRequest,
  listingAt: (platform: SandboxPlatform, id: string) => SandboxListing,
): SearchLegResult {
  const q = req.query;
  // Distances from the area's centre, else from the city searched (the place this leg reports).
  const place = CITIES[city]!;
  const geo = new LegGeo(platform, q.area, q.area.centre ?? { lat: place.lat, lng: place.lng });
  if (geo.unsupported) return { items: [], hasMore: false, warnings: [geo.unsupported] };
  const stay = q.checkIn && q.checkOut ? { checkIn: q.checkIn, checkOut: q.checkOut, occupancy: q.occupancy } : null;
  const all: { item: Property; rank: number }[] = [];
  let unknownTerms = 0;
  for (let serial = 1; serial <= LISTINGS_PER_CITY[platform]; serial++) {
    const listing = listingAt(platform, listingId(platform, city, serial));
    const item = geo.place(stay ? { ...listing.property, price: stayPrice(platform, listing, stay, q.currency) } : listing.property);
    if (!matches(q, item) || !geo.keep(item)) continue;
    // Issue 25: the terms of the stay's offers; an item no offer settles is kept and counted.
    if (stay && hasTermsFilter(q)) {
      const met = meetsTerms(sandboxOffersFor(platform, listing, stay, q.currency), q);
      if (met === false) continue;
      if (met === null) unknownTerms++;
    }
    all.push({ item, rank: listing.rank });
  }
  const compare = compareForSort(q.sort);
  const items = compare ? all.map((x) => x.item).sort(compare) : all.sort((a, b) => a.rank - b.rank).map((x) => x.item);
  const warnings: Warning[] = geo.warnings();
  if (platform === 'airbnb' && q.amenities.length) {
    warnings.push({ code: 'filter_applied_after_retrieval', message: 'Airbnb amenity filters are applied after retrieval, so pages may hold fewer items.', platform });
  }
  if (unknownTerms > 0) warnings.push(offerTermsUnknown(platform, termsFilterNames(q)));
  const page = items.slice(req.offset, req.offset + req.count);
  // Booking homes carry tiles, not stars, live: their starRating is null and the leg says so.
  if (platform === 'booking' && page.some((p) => p.propertyType !== 'hotel')) {
    warnings.push({ code: 'rating_not_stars', message: "booking: homes and apartments carry Booking.com's quality tiles, not hotel stars; their starRating is null.", platform });
  }
  // One warning per basis other than all-in on this page, as a live leg gives once per answer.
  for (const basis of new Set(page.map((p) => p.price?.basis))) {
    const warning = basis && basisWarning(basis, platform, 'some prices on this page');
    if (warning) warnings.push(warning);
  }
  return { items: page, hasMore: req.offset + req.count < items.length, warnings };
}
