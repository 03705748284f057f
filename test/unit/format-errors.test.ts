import { describe, expect, it } from 'vitest';
import { parseListing as parseAirbnbListing } from '../../src/adapters/platforms/airbnb/parse-listing.js';
import { missingPayload } from '../../src/adapters/platforms/airbnb/graphql.js';
import { graphqlData } from '../../src/adapters/platforms/booking/client.js';
import { parseCalendarAnswer } from '../../src/adapters/platforms/booking/parse-availability.js';
import { parseReviewPage } from '../../src/adapters/platforms/booking/parse-reviews.js';
import { parseSearchPage as parseBookingSearch } from '../../src/adapters/platforms/booking/parse-search.js';
import { answerKind, assertCurrency } from '../../src/adapters/platforms/google/guards.js';
import { parseListing as parseGoogleListing } from '../../src/adapters/platforms/google/parse-details.js';
import { parseSearchPage as parseVrboSearch } from '../../src/adapters/platforms/vrbo/parse-search.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import { LegFailure, UpstreamFormatError } from '../../src/domain/ports/platform.js';

/**
 * Format drift is told apart from the platform's own errors: an answer whose shape a parser does
 * not know throws UpstreamFormatError naming the parser's reason (a failed leg with
 * `upstream_format_changed`, never counted by a breaker); an error the platform states in its
 * answer stays an ordinary failed leg.
 */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

const VRBO_CTX = { siteUrl: 'https://www.vrbo.com', currency: 'USD', dated: false };
const sections = (over: object) => ({ data: { presentation: { stayProductDetailPage: { sections: { sections: [], metadata: { loggingContext: { eventDataLogging: { listingId: '42' } } }, ...over } } } } });

describe('answers in an unknown shape', () => {
  const cases: [string, () => unknown, RegExp][] = [
    ['airbnb listing without a title', () => parseAirbnbListing(sections({}), '42', 'https://www.airbnb.com', new FieldWarnings('airbnb')), /came without a title/],
    ['airbnb answer without data or errors', () => missingPayload({ data: {} }, 'listing'), /without the expected data/],
    ['booking answer without data or errors', () => graphqlData({ nothing: true }), /without data/],
    ['booking calendar without days', () => parseCalendarAnswer({ data: { availabilityCalendar: {} } }, null, new FieldWarnings('booking')), /availabilityCalendar\.days/],
    ['booking reviews without cards', () => parseReviewPage({ data: { reviewListFrontend: {} } }), /reviewCard/],
    ['booking search without results', () => parseBookingSearch({ data: { searchQueries: { search: {} } } }), /results array/],
    ['vrbo search without data.results', () => parseVrboSearch({ data: {} }, 1, 50, VRBO_CTX, new FieldWarnings('vrbo')), /data\.results/],
    ['vrbo search without listings', () => parseVrboSearch({ data: { results: {} } }, 1, 50, VRBO_CTX, new FieldWarnings('vrbo')), /listings array/],
    ['google answer that is not an object', () => answerKind([1, 2]), /not a SerpApi object/],
    ['google answer without its currency', () => assertCurrency({ search_parameters: {} }, 'USD'), /did not state the currency/],
    ['google details without a name', () => parseGoogleListing({ search_parameters: { property_token: 'ChkIabcdefgh' } }, 'ChkIabcdefgh'), /have no name/],
  ];
  for (const [name, fn, reason] of cases) {
    it(`${name} is a format error naming the reason`, () => {
      const err = thrown(fn);
      expect(err).toBeInstanceOf(UpstreamFormatError);
      const failure = err as UpstreamFormatError;
      expect({ status: failure.status, error: failure.error, platformFault: failure.platformFault }).toEqual({ status: 'failed', error: 'upstream_format_changed', platformFault: false });
      expect(failure.message).toMatch(reason);
    });
  }
});

describe('errors the platform states', () => {
  const cases: [string, () => unknown][] = [
    ['booking GraphQL error without data', () => graphqlData({ errors: [{ message: 'rate limited' }] })],
    ['booking calendar error object', () => parseCalendarAnswer({ data: { availabilityCalendar: { message: 'hotel closed' } } }, null, new FieldWarnings('booking'))],
    ['vrbo GraphQL errors without results', () => parseVrboSearch({ errors: [{ message: 'boom' }] }, 1, 50, VRBO_CTX, new FieldWarnings('vrbo'))],
    ['airbnb GraphQL error', () => missingPayload({ errors: [{ message: 'internal' }] }, 'listing')],
  ];
  for (const [name, fn] of cases) {
    it(`${name} stays an ordinary failed leg, not a format error`, () => {
      const err = thrown(fn);
      expect(err).toBeInstanceOf(LegFailure);
      expect(err).not.toBeInstanceOf(UpstreamFormatError);
      expect((err as LegFailure).error).toBe('upstream_error');
    });
  }
});
