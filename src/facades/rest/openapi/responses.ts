import { ERROR_DOCS, SUB_CODES, errorAnchor } from '../../../domain/error-catalogue.js';
import { ERROR_CODES, ERROR_STATUS, isRetryable, type ErrorCode } from '../../../domain/errors.js';
import type { Json } from './json.js';


const header = (description: string, type = 'string') => ({ description, schema: { type } });

/**
 * The headers of a call that used a deprecated item (spec 9), in components.headers only while
 * the deprecation table has entries (an unused component is a lint error); the service
 * description states them always.
 */
export const DEPRECATION_HEADERS: Json = {
  Deprecation: header('RFC 9745, only when the call used a deprecated operation, parameter or value: `@<unix seconds>` of the day it was deprecated. A `deprecated_usage` warning names the item and its replacement.'),
  Sunset: header('RFC 8594, with Deprecation: the HTTP date from which the deprecated item answers 410 `gone` (at least 6 months after its deprecation).'),
  Link: header('With Deprecation: `<changelog URL#entry>; rel="deprecation"`, the changelog entry that announced it.'),
};

/** Response headers, each defined once in components.headers. */
export const HEADERS: Json = {
  'X-Request-Id': header('req_ + ULID; also meta.requestId or error.requestId. Quote it when asking for help.'),
  'X-RateLimit-Limit': header('Requests per minute of the bucket this call drew from.', 'integer'),
  'X-RateLimit-Remaining': header('Requests left in the bucket.', 'integer'),
  'X-RateLimit-Reset': header('Unix time (seconds) when the bucket is full again.', 'integer'),
  RateLimit: header('IETF RateLimit field (draft-ietf-httpapi-ratelimit-headers): `"<policy>";r=<remaining>;t=<seconds until the bucket is full>`, e.g. `"key";r=29;t=2`. The policy is `key` (REST and tRPC), `user` (MCP) or `address` (calls without a valid key).'),
  'RateLimit-Policy': header('IETF RateLimit-Policy field: `"<policy>";q=<quota>;w=<window seconds>`, e.g. `"key";q=30;w=60` (30 requests per 60 s).'),
  'Retry-After': header('Seconds to wait before retrying (429, 503) or polling (202, pending jobs).', 'integer'),
  'WWW-Authenticate': header('`Bearer realm="api"` on every 401.'),
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy'];
const withHeaders = (names: string[]) => Object.fromEntries(names.map((n) => [n, ref(n)]));

function extraHeaders(status: number): string[] {
  if (status === 429 || status === 503 || status === 202) return ['Retry-After'];
  if (status === 401) return ['WWW-Authenticate'];
  return [];
}

function errorExample(code: ErrorCode, publicUrl: string, subCode?: string) {
  const doc = ERROR_DOCS[code];
  const sub = subCode ? SUB_CODES[subCode as keyof typeof SUB_CODES] : undefined;
  return {
    summary: subCode ? `${code} / ${subCode}` : code,
    value: {
      error: {
        code,
        ...(subCode ? { subCode } : {}),
        message: sub?.when ?? doc?.when ?? code,
        requestId: 'req_01JD0000000000000000000000',
        retryable: isRetryable(code),
        docUrl: `${publicUrl}/docs/errors#${errorAnchor(code, subCode)}`,
      },
    },
  };
}

/** One error response per status: its codes (and sub-codes) listed, with an example of each. */
export function errorResponse(status: number, publicUrl: string): Json {
  const codes = ERROR_CODES.filter((c) => ERROR_STATUS[c] === status);
  const examples: Json = {};
  for (const code of codes) {
    examples[code] = errorExample(code, publicUrl);
    for (const [sub, s] of Object.entries(SUB_CODES)) if (s.code === code) examples[`${code}.${sub}`] = errorExample(code, publicUrl, sub);
  }
  const list = codes.map((c) => `\`${c}\``).join(', ');
  return {
    description: `${list}. Each code is described in the error catalogue (${publicUrl}/docs/errors).`,
    headers: withHeaders([...RATE, ...extraHeaders(status)]),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, examples } },
  };
}

export function successHeaders(status: number): Json {
  return withHeaders([...RATE, ...extraHeaders(status)]);
}

/** Statuses an operation can answer with an error; the body-reading ones add 413 and 415. */
export function errorStatuses(readsBody: boolean): number[] {
  const all = [...new Set(Object.values(ERROR_STATUS) as number[])].sort();
  return all.filter((s) => s !== 405 && (readsBody || (s !== 413 && s !== 415)));
}
