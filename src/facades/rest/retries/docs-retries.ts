/**
 * The reference's section on safe retries, long polls and signed job webhooks (Markdown, part of
 * the OpenAPI document's introduction that /docs renders).
 */
export function retriesDocsMarkdown(): string {
  return `## Safe retries, waiting and webhooks

**Idempotency-Key** (REST, every operation that can cost credits): send a unique key (1-255 printable characters) and retry with the same key after a timeout. A repeat of the same request answers the stored answer (status, body, \`Retry-After\`) with \`Idempotent-Replayed: true\`, is never billed again and does not reach the platforms; answers are kept 24 h per account. The same key for another request: 422 \`idempotency_key_reused\`; while the first request still runs: 409 \`idempotency_key_in_use\` (retryable). Errors are not stored: a repeat after an error runs again. A 202 is stored: the repeat names the same job.

**Prefer: wait=N** (RFC 7240, N at most 30): a call that would answer 202 waits for its job and answers 200 with the result if it ends in time, else the usual 202; \`GET /v1/jobs/{jobId}\` waits for a pending or running job (long poll). \`Preference-Applied: wait=N\` says the wait was honoured.

**callbackUrl** (query, or the JSON body of \`POST /v1/search\`): when the call goes async, the job's answer (the body of \`GET /v1/jobs/{jobId}\`) is POSTed there when the job ends, signed per Standard Webhooks: \`Webhook-Signature: v1,<base64 HMAC-SHA256(secret bytes, "{Webhook-Id}.{Webhook-Timestamp}.{body}")>\`, where the secret bytes are the base64 after \`whsec_\` of your account's secret (shown by the admin CLI). The URL must be https on a public address (checked when given and before every delivery); redirects are not followed; answer 2xx within 5 s. Failed deliveries are retried for about 24 h; \`data.webhook\` on the job shows \`{ status, attempts, lastError }\`.

\`\`\`js
import { createHmac, timingSafeEqual } from 'node:crypto';
function verify(secret, headers, rawBody) {
  const ts = Number(headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - ts) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = 'v1,' + createHmac('sha256', key).update(\`\${headers['webhook-id']}.\${ts}.\${rawBody}\`).digest('base64');
  return headers['webhook-signature'].split(' ').some((s) => s.length === mac.length && timingSafeEqual(Buffer.from(s), Buffer.from(mac)));
}
\`\`\``;
}
