/**
 * What each error code and sub-code means to a client: when it happens and what to do. The
 * reference page's error catalogue is generated from this table joined with `ERROR_STATUS` and
 * the retry rule of errors.ts, so a code added there appears in the catalogue at once (with a
 * generic entry until it is described here). Keyed by string so that a description may precede
 * its code; only codes present in `ERROR_STATUS` are published.
 */
export interface ErrorDoc {
  when: string;
  action: string;
}

export const ERROR_DOCS: Readonly<Record<string, ErrorDoc>> = {
  invalid_request: { when: 'A parameter has the wrong type, format or value, or two parameters contradict each other. `param` names the parameter as you sent it; `subCode` says which rule failed.', action: 'Fix the request; retrying it unchanged gives the same answer.' },
  missing_parameter: { when: 'A required parameter (or one of a required pair such as checkIn/checkOut) is absent.', action: 'Add the parameter named in `param`.' },
  mutually_exclusive_params: { when: 'Two ways of naming the same thing were given together (listingId with url, googleHotelId with name).', action: 'Send only one of them.' },
  invalid_listing_url: { when: 'A listing URL is not on the platform\'s own host, or no listing id can be read from it. URLs are parsed, never fetched.', action: 'Send the native id, or the listing\'s canonical URL on the platform.' },
  invalid_listing_id: { when: 'A listing id does not have the form the platform uses.', action: 'Send the id exactly as the platform (or our search) gave it.' },
  limit_out_of_range: { when: '`limit` is not a whole number from 1 to 100.', action: 'Send a limit within the range; page with `cursor` for more.' },
  invalid_cursor: { when: 'A cursor was altered, belongs to another query, or has expired.', action: 'Start again without `cursor`, with the same other parameters as the first page.' },
  unauthenticated: { when: 'The key is missing, malformed, unknown or revoked (deliberately indistinguishable). REST and MCP answer with `WWW-Authenticate: Bearer`.', action: 'Send `Authorization: Bearer <key>` with a current key.' },
  credit_balance_too_low: { when: 'The balance cannot cover the largest possible cost of a live call; nothing was charged and no platform was asked.', action: 'Add credits, or use a sandbox key (free) while developing.' },
  max_credits_exceeded: { when: 'The call\'s largest possible cost is above the `maxCredits` you sent; nothing was charged and no platform was asked. The message names the worst case.', action: 'Raise `maxCredits` to at least the worst case, or ask fewer platforms or a smaller `limit`; `dryRun=true` shows the cost first, free.' },
  permission_denied: { when: 'The account may not make this call (for example its e-mail is not verified for live calls).', action: 'See `subCode`; verify the account\'s e-mail before using live credits.' },
  not_found: { when: 'No endpoint exists at this path.', action: 'Check the path against this reference; every endpoint is under `/v1`.' },
  listing_not_found: { when: 'The platform has no listing with this id (or it was removed), or no property has exactly the name price-compare was given (`param`: `name`).', action: 'Check the id or name; search again for current listings.' },
  job_not_found: { when: 'The job id is unknown, belongs to another account, or is older than 24 hours.', action: 'Make the original call again to get a new job.' },
  gone: { when: 'The operation, parameter or value was deprecated and its sunset date has passed (spec 9); the message names it and its replacement. Until then it answered with `Deprecation`, `Sunset` and `Link` headers and a `deprecated_usage` warning.', action: 'Use the replacement named in the message and in the changelog entry.' },
  method_not_allowed: { when: 'The path exists but not with this HTTP method; the `Allow` header lists the methods it takes.', action: 'Use a method from `Allow`.' },
  payload_too_large: { when: 'A request body is larger than the service accepts.', action: 'Send a smaller body; a search body is a few hundred bytes.' },
  unsupported_media_type: { when: 'A POST body is not JSON (or not in a charset we can decode).', action: 'Send `Content-Type: application/json` with a UTF-8 body.' },
  rate_limit_exceeded: { when: 'The key\'s (REST) or account\'s (MCP) bucket is empty.', action: 'Wait `Retry-After` seconds; the `RateLimit` headers show the budget on every answer.' },
  internal_error: { when: 'Something failed on our side. Nothing was charged.', action: 'Retry with backoff; quote `requestId` if it persists.' },
  upstream_unavailable: { when: 'Every platform asked failed or was blocked; nothing was charged.', action: 'Retry later (see `Retry-After` when present), or ask fewer platforms.' },
  service_unavailable: { when: 'The service cannot serve the call right now (a dependency it needs is down); nothing was charged.', action: 'Retry after `Retry-After` seconds.' },
  idempotency_key_in_use: { when: 'A request with this Idempotency-Key is still running; nothing was charged for this one.', action: 'Retry after `Retry-After` seconds with the same key: you get the first request\'s answer.' },
  idempotency_key_reused: { when: 'This Idempotency-Key was already used (within 24 h) for a different request.', action: 'Use a new key for a new request; reuse a key only to retry the very same request.' },
  upstream_format_error: { when: 'A platform answered in a format we no longer recognise; nothing was charged for that platform.', action: 'Retry later or ask other platforms; we are alerted to format changes.' },
};

/**
 * Sub-codes refine a code; each gets its own catalogue entry (and `docUrl` anchor). Every
 * sub-code the service sends is listed here: `SubCode` is the type `ServiceError` takes.
 */
export const SUB_CODES = {
  invalid_type: { code: 'invalid_request', when: 'A value has the wrong type (text where a number or a list is expected).' },
  not_integer: { code: 'invalid_request', when: 'A count (adults, rooms, minBedrooms…) is not a whole number, e.g. `adults=2.5`.' },
  out_of_range: { code: 'invalid_request', when: 'A number or a text length is outside its allowed range; the message gives the bounds.' },
  invalid_value: { code: 'invalid_request', when: 'A value is not one of the allowed values (platform, sort, currency, amenity…); the message lists them.' },
  invalid_format: { code: 'invalid_request', when: 'A text does not have the required form (for example YYYY-MM-DD, or control characters in a name).' },
  invalid_date: { code: 'invalid_request', when: 'A date has the YYYY-MM-DD form but is not on the calendar, e.g. `2027-02-30`.' },
  date_in_past: { code: 'invalid_request', when: 'A date is in the past in every time zone.' },
  date_order: { code: 'invalid_request', when: 'checkOut (or endDate) is not after checkIn (or startDate).' },
  stay_too_long: { code: 'invalid_request', when: 'A stay is longer than 365 nights.' },
  window_too_long: { code: 'invalid_request', when: 'An availability window is longer than 365 days.' },
  dates_required: { code: 'invalid_request', when: 'A price filter or sort, or a refundable or board filter, was asked for without checkIn and checkOut: a price and its terms exist only for a stay.' },
  child_ages_mismatch: { code: 'invalid_request', when: 'The number of childAges differs from children.' },
  platform_not_supported: { code: 'invalid_request', when: 'The platform does not serve this operation for your key kind; the message lists those that do (see `GET /v1/platforms`).' },
  repeated_parameter: { code: 'invalid_request', when: 'A single-valued parameter was sent more than once (`limit=5&limit=6`).' },
  json_too_deep: { code: 'invalid_request', when: 'The JSON body nests deeper than 64 levels.' },
  invalid_json: { code: 'invalid_request', when: 'The request body is not valid JSON.' },
  invalid_encoding: { code: 'invalid_request', when: 'A path segment is not valid percent-encoding.' },
  malformed_input: { code: 'invalid_request', when: 'The request could not be read at all.' },
  unsupported_charset: { code: 'unsupported_media_type', when: 'The body\'s declared charset cannot be decoded.' },
  invalid_idempotency_key: { code: 'invalid_request', when: 'The Idempotency-Key header is empty, longer than 255 characters or not printable ASCII.' },
  invalid_callback_url: { code: 'invalid_request', when: 'callbackUrl is not an absolute https URL without credentials.' },
  callback_url_not_allowed: { code: 'invalid_request', when: 'callbackUrl resolves to an address that is not public (loopback, private, link-local, metadata or reserved).' },
  callback_url_unresolvable: { code: 'invalid_request', when: 'callbackUrl\'s host has no address in DNS (checked within 3 s).' },
  listing_platform_mismatch: { code: 'invalid_listing_id', when: 'A search item\'s id (`stays_<platform>_<native id>`) names another platform than the call\'s `platform`.' },
  email_unverified: { code: 'permission_denied', when: 'Live calls need a verified account e-mail.' },
} as const;

export type SubCode = keyof typeof SUB_CODES;

/** The catalogue anchor of a code, or of a code's sub-code: each `docUrl` lands on its own entry. */
export function errorAnchor(code: string, subCode?: string): string {
  return subCode ? `${code}.${subCode}` : code;
}

/**
 * Warnings (`meta.warnings[].code`): not errors, the answer is given, but a value is null, a list
 * empty or a filter loose for a stated reason. Listed on the catalogue page after the errors.
 * Issue 25's rates, fee lines and price context each name what is missing this way.
 */
export const WARNING_DOCS: Readonly<Record<string, string>> = {
  deprecated_usage: 'The call used a deprecated operation, parameter or value: it still works until the sunset date, which the message, the `Sunset` header and the changelog entry (the `Link` header) state, with the replacement.',
  offer_terms_unknown: 'A board, refund or payment term of an offer is not stated by the platform: it is null. With a `refundable` or `board` search filter, the items whose terms are unknown are kept (never dropped for what their platform did not say), and this warning names the platform.',
  fee_payment_unknown: 'The platform does not state whether a fee line is paid with the booking or at the property: its `payAtProperty` is null (its amount and whether it is inside the displayed price are still stated).',
  offers_unavailable: 'The platform lists no room or rate beside its headline price: `price.offers` is empty and the top-level price is the only rate.',
  price_context_unavailable: 'The platform states no typical price range for the property: `price.context` is null (only Google Hotels states one).',
  nightly_price_unavailable: 'The calendar states no exact price per night (Airbnb states none; Booking.com prints some abbreviated, "₹7.5K", which are not prices): `dates[].nightlyPrice` is null.',
  ambiguous_property: 'Several properties have exactly the name price-compare was given (in the location given): the comparison is for one of them, which `meta.resolved.property` names and the message says why, and the message names the others with their `googleHotelId`; send `googleHotelId` to choose. Sandbox keys compare the first the sandbox\'s search lists; a live key answers 404 `listing_not_found` instead, as Google\'s answer does not say which is meant.',
  reviews_truncated: 'The platform counts more reviews for the listing than it serves (only its newest, 150 in the sandbox): paging reads fewer than the listing\'s `reviewCount`, and `reviewSummary` with basis `platform` counts and averages reviews the pages do not hold. The message states both numbers.',
  cheapest_stays_unavailable: '`nights` was given but no stay of that length could be priced from the calendar: `meta.cheapestStays` is empty.',
};
