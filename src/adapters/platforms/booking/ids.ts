/**
 * Booking.com names a property two ways: the numeric hotel id of its GraphQL answers
 * (`basicPropertyData.id`, what search returns as platformListingId) and the page name of its URL
 * (`/hotel/<cc>/<slug>.html`, which the service's URL parser reduces to "<cc>/<slug>"). Some
 * upstream operations take one form, some the other; the adapter accepts both and resolves.
 */
export type BookingRef = { kind: 'hotel'; hotelId: number } | { kind: 'page'; countryCode: string; pageName: string };

const HOTEL_ID = /^[1-9]\d{0,11}$/;
const PAGE_ID = /^([a-z]{2})\/([a-z0-9][a-z0-9-]{0,200})$/;
/** What a page name may look like before it goes into a request body. */
const PAGE_NAME = /^[a-z0-9][a-z0-9-]{0,200}$/;

/** The native id in one of its two forms, or null when it cannot be a Booking.com property. */
export function parseBookingId(id: string): BookingRef | null {
  if (HOTEL_ID.test(id)) return { kind: 'hotel', hotelId: Number(id) };
  const m = PAGE_ID.exec(id);
  return m ? { kind: 'page', countryCode: m[1]!, pageName: m[2]! } : null;
}

/** The property page, when Booking.com told us its country and page name. */
export function pageUrl(countryCode: string | null, pageName: string | null): string | null {
  const cc = countryCode?.toLowerCase() ?? null;
  if (!cc || !/^[a-z]{2}$/.test(cc) || !pageName || !PAGE_NAME.test(pageName)) return null;
  return `https://www.booking.com/hotel/${cc}/${pageName}.html`;
}

/** A Booking.com page that shows one hotel by its numeric id, for items without a page name. */
export function hotelSearchUrl(hotelId: string): string {
  return `https://www.booking.com/searchresults.html?dest_type=hotel&dest_id=${encodeURIComponent(hotelId)}`;
}
