/** The /docs section on safe retries, long polls and signed job webhooks (issue 17). */
export function retriesDocsHtml(): string {
  return `<h2 id="retries">Safe retries, waiting and webhooks</h2>
<p><strong>Idempotency-Key</strong> (REST, every operation that can cost credits): send a unique key (1-255 printable characters) and retry
with the same key after a timeout. A repeat of the same request answers the stored answer (status, body, <code>Retry-After</code>) with
<code>Idempotent-Replayed: true</code>, is never billed again and does not reach the platforms; answers are kept 24 h per account. The same key
for another request: 422 <code>idempotency_key_reused</code>; while the first request still runs: 409 <code>idempotency_key_in_use</code>
(retryable). Errors are not stored: a repeat after an error runs again. A 202 is stored: the repeat names the same job.</p>
<p><strong>Prefer: wait=N</strong> (RFC 7240, N at most 30): a call that would answer 202 waits for its job and answers 200 with the result
if it ends in time, else the usual 202; <code>GET /v1/jobs/{jobId}</code> waits for a pending or running job (long poll).
<code>Preference-Applied: wait=N</code> says the wait was honoured.</p>
<p><strong>callbackUrl</strong> (query, or the JSON body of <code>POST /v1/search</code>): when the call goes async, the job's answer (the body of
<code>GET /v1/jobs/{jobId}</code>) is POSTed there when the job ends, signed per <a href="https://www.standardwebhooks.com">Standard Webhooks</a>:
<code>Webhook-Signature: v1,&lt;base64 HMAC-SHA256(secret bytes, "{Webhook-Id}.{Webhook-Timestamp}.{body}")&gt;</code>, where the secret bytes
are the base64 after <code>whsec_</code> of your account's secret (shown by the admin CLI). The URL must be https on a public address (checked
when given and before every delivery); redirects are not followed; answer 2xx within 5 s. Failed deliveries are retried for about 24 h;
<code>data.webhook</code> on the job shows <code>{ status, attempts, lastError }</code>.</p>
<pre><code>import { createHmac, timingSafeEqual } from 'node:crypto';
function verify(secret, headers, rawBody) {
  const ts = Number(headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - ts) &gt; 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = 'v1,' + createHmac('sha256', key).update(\`\${headers['webhook-id']}.\${ts}.\${rawBody}\`).digest('base64');
  return headers['webhook-signature'].split(' ').some((s) =&gt; s.length === mac.length &amp;&amp; timingSafeEqual(Buffer.from(s), Buffer.from(mac)));
}</code></pre>`;
}
