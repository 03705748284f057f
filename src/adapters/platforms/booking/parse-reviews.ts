import type { Review } from '../../../domain/model/review.js';
import { languageTag, type LanguageTag } from '../../../domain/locale.js';
import { RATING_SCALE } from '../../../domain/platforms.js';
import { LegFailure, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { dig, num, str, type FieldWarnings } from '../parse-support.js';
import { graphqlData } from './client.js';
import { TRIP_TYPES } from './mappings.js';
import { warnOnce } from './parse-price.js';

export interface ReviewPage {
  cards: unknown[];
  /** `reviewsCount`: reviews matching the request's filters, when the platform says. */
  total: number | null;
}

/** `data.reviewListFrontend.{reviewCard[], reviewsCount}`; an error object there is a failed leg. */
export function parseReviewPage(json: unknown): ReviewPage {
  const list = dig(graphqlData(json), 'reviewListFrontend');
  const cards = dig(list, 'reviewCard');
  if (!Array.isArray(cards)) {
    const message = str(dig(list, 'message'));
    if (message) throw new LegFailure('failed', `booking answered no reviews: ${message}`);
    throw new UpstreamFormatError('booking answered without reviewListFrontend.reviewCard');
  }
  const total = num(dig(list, 'reviewsCount'));
  return { cards, total: total !== null && total >= 0 ? total : null };
}

/** Booking.com's `lang` ("en-gb", "pt-br") as a BCP 47 tag; "xu" is its "unknown language". */
function tagOf(lang: string | null): LanguageTag {
  return lang && lang.toLowerCase() !== 'xu' ? languageTag(lang) : { language: null, locale: null };
}

function isoDateOfEpoch(value: unknown): string | null {
  const seconds = num(value);
  if (seconds === null || seconds <= 0) return null;
  // Epoch seconds; a value in milliseconds would be after the year 33658.
  const ms = seconds > 1e11 ? seconds : seconds * 1000;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

/**
 * One ReviewCard: `reviewUrl` is the review's id, `reviewScore` is on the 10 scale,
 * `reviewedDate` is unix seconds, `textDetails.positiveText`/`negativeText` are what the guest
 * liked and disliked (the text is both), `bookingDetails.customerType` is the trip type and
 * `partnerReply.reply` the property's answer. A card without id or date is left out.
 */
export function parseReviewCard(card: unknown, listingId: string, w: FieldWarnings): Review | null {
  const reviewId = str(dig(card, 'reviewUrl'));
  const date = isoDateOfEpoch(dig(card, 'reviewedDate'));
  if (!reviewId || !date) {
    warnOnce(w, 'item_skipped', 'booking: a review without id or date was left out.');
    return null;
  }
  const text = dig(card, 'textDetails');
  const liked = str(dig(text, 'positiveText'));
  const disliked = str(dig(text, 'negativeText'));
  const customerType = str(dig(card, 'bookingDetails', 'customerType'));
  const tripType = customerType ? TRIP_TYPES[customerType] : undefined;
  if (customerType && !tripType) warnOnce(w, 'field_unavailable', `tripType: customer type ${customerType} is not mapped`);
  const anonymous = dig(card, 'guestDetails', 'anonymous') === true;
  return {
    platform: 'booking',
    listingId,
    reviewId,
    rating: num(dig(card, 'reviewScore')) ?? w.missing('rating'),
    ratingScale: RATING_SCALE.booking,
    // Titles are optional on Booking.com: null is the guest writing none.
    title: str(dig(text, 'title')),
    // A score-only card has neither part: its text is null, not "".
    text: liked === null && disliked === null ? null : [liked, disliked].filter((t): t is string => t !== null).join('\n'),
    author: anonymous ? null : str(dig(card, 'guestDetails', 'username')),
    date,
    tripType: tripType ?? null,
    ...tagOf(str(dig(text, 'lang'))),
    ownerResponse: str(dig(card, 'partnerReply', 'reply')),
    liked,
    disliked,
  };
}
