import { NATIVE_LISTING_ID } from '../../../domain/listing-ids/id-shapes.js';
import { LegFailure, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { dig, str } from '../parse-support.js';

/**
 * Checks every SerpApi answer passes before its numbers are used: it is about the listing, the
 * currency and the dates that were asked for (SerpApi echoes them in `search_parameters`), and it
 * is not an error object. A mismatch is a failed leg, never relabelled data.
 */

/**
 * A Google property token (`ChkIqafB4ez8rtLKARoML2cvMXE2cWJiYjhiEAE`): base64url without padding.
 * The same shape the listing-URL parser accepts, so any id reaching an upstream query is one.
 */
export function isPropertyToken(id: string): boolean {
  return NATIVE_LISTING_ID.google!.test(id);
}

/** The Google Travel page of a property, the listing URL of spec 2.3. */
export function entityUrl(token: string): string {
  return `https://www.google.com/travel/hotels/entity/${token}`;
}

export type AnswerKind = 'ok' | 'no_results';

/**
 * SerpApi reports "nothing found" and real faults alike as `{ error: "..." }` (often with HTTP 200).
 * "No results" is an answer (an empty search, an unknown property); anything else fails the leg.
 */
export function answerKind(json: unknown): AnswerKind {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new UpstreamFormatError('google answered something that is not a SerpApi object');
  const error = str(dig(json, 'error'));
  if (error === null && str(dig(json, 'search_metadata', 'status'))?.toLowerCase() !== 'error') return 'ok';
  if (error !== null && /hasn'?t returned any results|no results/i.test(error)) return 'no_results';
  throw new LegFailure('failed', `google answered with an error: ${(error ?? 'status Error').slice(0, 200)}`);
}

/** spec 2.4/2.5: an answer priced in another currency than asked is a failed leg. */
export function assertCurrency(json: unknown, wanted: string): void {
  const got = str(dig(json, 'search_parameters', 'currency'));
  if (got === null) throw new UpstreamFormatError(`google did not state the currency of its answer (asked for ${wanted})`);
  if (got.toUpperCase() !== wanted.toUpperCase()) throw new LegFailure('failed', `google answered in ${got}, not ${wanted}`);
}

/** Prices for other dates than the stay asked for are not a price for this stay. */
export function assertStay(json: unknown, checkIn: string, checkOut: string): void {
  const from = str(dig(json, 'search_parameters', 'check_in_date'));
  const to = str(dig(json, 'search_parameters', 'check_out_date'));
  if (from !== checkIn || to !== checkOut) {
    throw new LegFailure('failed', `google answered for the stay ${from ?? '?'} to ${to ?? '?'}, not ${checkIn} to ${checkOut}`);
  }
}

/** Never another property's data: the echoed and the answered token must both be the one asked for. */
export function assertListing(json: unknown, wanted: string): void {
  const echoed = [str(dig(json, 'search_parameters', 'property_token')), str(dig(json, 'property_token'))].filter((t): t is string => t !== null);
  if (echoed.length === 0) throw new LegFailure('failed', `google did not say which listing it answered for (asked for ${wanted})`);
  const other = echoed.find((t) => t !== wanted);
  if (other !== undefined) throw new LegFailure('failed', `google answered for listing ${other}, not ${wanted}`);
}
