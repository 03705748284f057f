/**
 * A hotel the sandbox's own search lists in Lisbon (google, the first in recommended order), for
 * tests that need price-compare by name to answer 200: the sandbox matches names exactly as the
 * live path does (issue 34), so an invented name is a 404. The OpenAPI `name` example is the same
 * hotel; test/facades/price-compare-names.test.ts checks the search still lists it.
 */
export const SANDBOX_HOTEL = 'Lumen Hotel Belém';

/** As it goes in a query string. */
export const SANDBOX_HOTEL_QUERY = encodeURIComponent(SANDBOX_HOTEL);
