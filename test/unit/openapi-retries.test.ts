import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/facades/rest/openapi.js';
import { appRouter } from '../../src/router/app-router.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The OpenAPI document and /docs describe the retry controls and the job webhook (issue 17). */
describe('OpenAPI retry controls', () => {
  const doc = buildOpenApiDocument(appRouter, 'http://127.0.0.1:3000') as Json;
  const names = (op: Json) => (op.parameters as Json[]).map((p) => `${p.in}:${p.name}`);

  it('every operation that may answer 202 takes Idempotency-Key, Prefer and callbackUrl, and names the response headers', () => {
    const asyncOps = Object.entries(doc.paths as Json).flatMap(([path, ops]) => Object.entries(ops as Json).filter(([, op]) => op.responses['202']).map(([m, op]) => ({ path, m, op: op as Json })));
    expect(asyncOps.length).toBeGreaterThanOrEqual(7);
    for (const { path, m, op } of asyncOps) {
      expect(names(op), `${m} ${path}`).toEqual(expect.arrayContaining(['header:Idempotency-Key', 'header:Prefer']));
      const inBody = op.requestBody?.content?.['application/json']?.schema?.properties?.callbackUrl;
      expect(inBody ?? names(op).includes('query:callbackUrl'), `${m} ${path}`).toBeTruthy();
      expect(Object.keys(op.responses['202'].headers)).toEqual(expect.arrayContaining(['Idempotent-Replayed', 'Preference-Applied', 'Retry-After']));
      expect(op.responses['409'].description).toContain('idempotency_key_in_use');
      expect(op.responses['422'].description).toContain('idempotency_key_reused');
    }
    expect(names(doc.paths['/jobs/{jobId}'].get)).toContain('header:Prefer');
    expect(names(doc.paths['/account'].get)).not.toContain('header:Idempotency-Key');
  });

  it('documents the signed webhook, and the reference carries a verification snippet', () => {
    const hook = doc.webhooks.jobEnded.post;
    expect(hook.parameters.map((p: Json) => p.name)).toEqual(['Webhook-Id', 'Webhook-Timestamp', 'Webhook-Signature']);
    expect(hook.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/JobResponse');
    // One variant per operation (discriminated by `operation`), each with the webhook's delivery.
    const variants = doc.components.schemas.JobResponse.properties.data.oneOf as Json[];
    expect(variants.map((v) => v.properties.operation.const)).toEqual(['search', 'availability', 'listing', 'price', 'priceCompare', 'reviews']);
    expect(variants.every((v) => v.properties.webhook)).toBe(true);
    // The reference page renders the document's introduction, which carries the section and a snippet.
    expect(doc.info.description).toContain('## Safe retries, waiting and webhooks');
    expect(doc.info.description).toContain('createHmac');
  });
});
