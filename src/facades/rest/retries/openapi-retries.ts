import { MAX_WAIT_SECONDS } from '../../../router/retries/retry.js';
import type { Json } from '../openapi/json.js';


const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first request with a key runs and its answer is kept 24 h; a repeat of the same request answers it again ' +
    '(Idempotent-Replayed: true) without a charge or a platform call. 1-255 printable characters. The same key for another request: 422 ' +
    'idempotency_key_reused; while the first still runs: 409 idempotency_key_in_use (retry). Errors are not kept: a repeat runs again.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
const PREFER = (what: string) => ({
  name: 'Prefer',
  in: 'header',
  required: false,
  description: `RFC 7240 wait=N (at most ${MAX_WAIT_SECONDS}): ${what} Preference-Applied says the wait was honoured.`,
  schema: { type: 'string', examples: ['wait=10'] },
});
const CALLBACK_URL = {
  type: 'string',
  format: 'uri',
  maxLength: 2048,
  description:
    'When the call goes async: an https URL on a public address that receives the job answer (the body of GET /v1/jobs/{jobId}), ' +
    'signed per Standard Webhooks with the account secret, when the job ends. Retried with backoff for about 24 h. A call answered at once does not call back.',
};
const RESPONSE_HEADERS = {
  'Idempotent-Replayed': { description: 'true when this is the stored answer of an earlier request with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } },
  'Preference-Applied': { description: 'wait=N when Prefer: wait was honoured.', schema: { type: 'string' } },
};
const SIGNATURE_HEADERS = [
  ['Webhook-Id', 'Unique per delivery, the same on every retry of it: de-duplicate on it.'],
  ['Webhook-Timestamp', 'Unix seconds of this attempt; refuse ones more than 5 minutes away from your clock.'],
  ['Webhook-Signature', 'Space-separated v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" keyed with the secret after whsec_>; two during a secret rotation.'],
].map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));

/**
 * Adds the retry controls of issue 17 to the generated document: Idempotency-Key, Prefer and
 * callbackUrl on every operation that may answer 202, Prefer on the job poll, their response
 * headers, and the job webhook itself (OpenAPI 3.1 `webhooks`).
 */
export function addRetryControls(doc: Json): void {
  for (const [path, ops] of Object.entries(doc.paths as Json)) {
    for (const op of Object.values(ops as Json) as Json[]) {
      if (path === '/jobs/{jobId}') {
        op.parameters = [...(op.parameters ?? []), PREFER('waits for a pending or running job to end (long poll).')];
        op.responses['200'].headers = { ...op.responses['200'].headers, 'Preference-Applied': RESPONSE_HEADERS['Preference-Applied'] };
        continue;
      }
      if (!op.responses?.['202']) continue;
      op.parameters = [...(op.parameters ?? []), IDEMPOTENCY_KEY, PREFER('a call that would answer 202 waits for its job and answers 200 if it ends in time, else the usual 202.')];
      const body = op.requestBody?.content?.['application/json']?.schema as Json | undefined;
      if (body?.properties) body.properties.callbackUrl = CALLBACK_URL;
      else op.parameters.push({ name: 'callbackUrl', in: 'query', required: false, description: CALLBACK_URL.description, schema: { ...CALLBACK_URL } });
      for (const status of ['200', '202']) op.responses[status].headers = { ...op.responses[status].headers, ...RESPONSE_HEADERS };
    }
  }
  doc.webhooks = {
    jobEnded: {
      post: {
        operationId: 'jobEndedWebhook',
        summary: 'A job with a callbackUrl ended (completed or failed)',
        description: 'POSTed to the callbackUrl with the body GET /v1/jobs/{jobId} answers. Answer 2xx within 5 s; redirects are not followed and at most 1 KB of your answer is read. Other answers are retried with backoff for about 24 h.',
        parameters: SIGNATURE_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/JobResponse' } } } },
        responses: { '200': { description: 'Received.' } },
      },
    },
  };
}
