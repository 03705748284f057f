/**
 * Airbnb parsers: pure functions from Airbnb's own GraphQL responses to the unified schema.
 * - StaysSearch → Property cards (with a dated, line-item price)   parse-search.ts, display-price.ts
 * - StaysPdpSections → Property (listing detail)                   parse-listing.ts, pdp-facts.ts
 * - PdpAvailabilityCalendar → CalendarDay[]                        parse-calendar.ts
 * - StaysPdpReviewsQuery → Review[]                                parse-reviews.ts
 */
export { parseSearchPage, parseSearchResult, parseCardPrice, searchResultsOf, type SearchContext, type SearchPage } from './parse-search.js';
export { parseDisplayPrice, type DisplayPriceContext } from './display-price.js';
export { parseListing } from './parse-listing.js';
export { parseCalendar } from './parse-calendar.js';
export { parseReviewsPage, htmlToText, type ReviewsPage } from './parse-reviews.js';
export { amenityOf, propertyTypeOf } from './taxonomy.js';
export { amountOf, currenciesOf, isInCurrency, ratingAndCount } from './money.js';
export { nativeIdFromRelay, relayId } from './ids.js';
