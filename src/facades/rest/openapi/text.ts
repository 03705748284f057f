import { retriesDocsMarkdown } from '../retries/docs-retries.js';

/** Tags in reference order, each with what it groups. */
export const TAGS = [
  { name: 'Search', description: 'Fan-out search across platforms, merged and cursor-paginated.' },
  { name: 'Availability', description: 'Day-by-day calendars of one listing or a batch.' },
  { name: 'Listings', description: 'Full details of one listing, with a price when dates are given.' },
  { name: 'Prices', description: 'All-in price quotes and cross-OTA comparison.' },
  { name: 'Reviews', description: 'Normalised reviews on each platform\'s native scale.' },
  { name: 'Jobs', description: 'Polling the jobs of 202 answers. Always free.' },
  { name: 'Account', description: 'The calling key: plan, balance, limits and what each platform serves. Free.' },
];

/**
 * The document's introduction (Markdown, rendered at the top of the reference): the rules every
 * operation shares, written once here rather than repeated per operation.
 */
export function serviceDescription(publicUrl: string, matrix: { sandbox: string; live: string } | null): string {
  const capabilities = matrix
    ? `\n\n## What each platform serves\n\nFor **sandbox keys**: ${matrix.sandbox}.\n\nFor **live keys** (this deployment): ${matrix.live}.\n\n` +
      'Any other combination answers 400 `platform_not_supported`, listing what your key kind can use. `GET /v1/platforms` returns the matrix for the calling key.'
    : '';
  return `Search, availability, listing detail, price quotes, cross-OTA price comparison and reviews for Airbnb, Booking.com, Vrbo and Google Hotels under one schema.

## Authentication

Every call sends \`Authorization: Bearer <key>\`. \`svc_test_…\` sandbox keys are free and deterministic (see the sandbox triggers below); \`svc_live_…\` keys reach the platforms and are billed in credits. A missing, unknown or revoked key answers 401 with \`WWW-Authenticate: Bearer realm="api"\`.

**Browsers:** API keys do not belong in web pages, so the API grants no cross-origin access (no CORS headers; a preflight answers 405). Call it from your server. The "try it" of this page works because the page is served by the API itself.

## Answers

Success is \`{ data, meta }\`: \`meta\` says which platforms answered, whether the answer is \`partial\`, what it cost (\`creditsCharged\`), the \`pagination\` cursor and any \`warnings\` (for example \`unknown_parameter\` naming a query parameter the endpoint does not read). A slow live call answers **202** with a job to poll at \`GET /v1/jobs/{jobId}\`, free. Errors are \`{ error: { code, subCode?, message, param?, requestId, retryable, docUrl } }\`; every code and sub-code is explained in the [error catalogue](${publicUrl}/docs/errors).

Every response carries \`X-Request-Id\` and the rate-limit headers \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\`, \`RateLimit\` and \`RateLimit-Policy\`; a 429 adds \`Retry-After\`. A call that uses a deprecated operation, parameter or value also gets \`Deprecation: @<unix seconds>\` (RFC 9745), \`Sunset: <HTTP date>\` (RFC 8594, at least 6 months later) and \`Link: <${publicUrl}/changelog#entry>; rel="deprecation"\`, with a \`deprecated_usage\` warning; after its sunset it answers 410 \`gone\`. Such items are marked \`deprecated: true\` here; today there are none.${capabilities}

## Sandbox triggers

| Value | Where | Effect |
|---|---|---|
| \`sandbox:async\` | search \`location\`, price-compare \`name\` | 202 with a job that completes in about 2 s |
| \`sandbox:partial\` | search \`location\`, price-compare \`name\` | the last platform asked fails; \`meta.partial\` is true |
| \`sandbox:unavailable\` | search \`location\`, price-compare \`name\`/\`googleHotelId\`, any listing id | 503 \`upstream_unavailable\` |
| \`sandbox:format-changed\` | search \`location\`, price-compare \`name\`/\`googleHotelId\`, any listing id | that leg is \`failed\` with \`error: upstream_format_changed\`; when it is the only leg, 502 \`upstream_format_error\` (not retryable) |
| \`sandbox-missing\` | any listing id, \`googleHotelId\` or \`name\` | 404 \`listing_not_found\` |

${retriesDocsMarkdown()}

## Typed clients

\`npx openapi-typescript ${publicUrl}/v1/openapi.json -o api.d.ts\` generates the types; \`openapi-fetch\` calls the API with them. Dashboards on tRPC use the declarations of \`npm run build:types\` (\`dist/types\`).`;
}
