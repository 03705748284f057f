import { LegFailure, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { dig, str } from '../parse-support.js';

/**
 * Airbnb's GraphQL answers HTTP 200 with an `errors` array when it cannot serve a query. When the
 * expected payload is absent, this tells "no such listing" (null) from a failure (thrown).
 */
const NOT_FOUND = /not[ _-]?found|does not exist|no such (listing|room)|invalid listing/i;

export function missingPayload(json: unknown, what: string): null {
  const errors = dig(json, 'errors');
  if (Array.isArray(errors) && errors.length > 0) {
    const texts = errors.map((e) => [str(dig(e, 'message')), str(dig(e, 'extensions', 'code')), String(dig(e, 'extensions', 'response', 'statusCode') ?? '')].join(' '));
    if (texts.some((t) => NOT_FOUND.test(t) || /\b404\b/.test(t))) return null;
    throw new LegFailure('failed', `airbnb ${what} answered with an error: ${(str(dig(errors[0], 'message')) ?? 'unknown').slice(0, 200)}`);
  }
  throw new UpstreamFormatError(`airbnb ${what} answered without the expected data`);
}
