import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadResponseExamples } from '../../src/facades/rest/openapi/examples.js';
import { startTestApp, type TestApp } from '../support/app.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const FILE = 'fixtures/openapi/response-examples.json';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ worker: true });
});
afterAll(() => app?.close());

/** Two items of every list: enough to show the shape, short enough to read. */
function trim(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(trim);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trim(v)]));
  return value;
}

describe('the examples of the OpenAPI document', () => {
  it('make a valid request for every operation (what "try it" sends), and its answer is the response example', async () => {
    const { key } = await app.newKey('sandbox');
    const doc = (await (await app.get('/v1/openapi.json')).json()) as Json;
    const recorded: Record<string, unknown> = {};
    for (const [template, ops] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(ops as Json) as [string, Json][]) {
        const params = (op.parameters ?? []) as Json[];
        let path = template;
        const query = new URLSearchParams();
        for (const p of params) {
          if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(p.example ?? 'job_01JD0000000000000000000000')));
          else if ('example' in p) query.set(p.name, String(p.example));
        }
        const body = op.requestBody?.content?.['application/json']?.example;
        const res = await fetch(`${app.baseUrl}/v1${path}${query.size ? `?${query}` : ''}`, {
          method: method.toUpperCase(),
          headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        // A made-up job id is unknown by design; every other operation answers 200 to its examples.
        const expected = template === '/jobs/{jobId}' ? 404 : 200;
        expect(res.status, `${method} ${template}?${query}`).toBe(expected);
        const answer = (await res.json()) as Json;
        if (expected === 200) recorded[op.operationId] = trim(answer);
      }
    }
    // The job poll's example: a sandbox:async search, polled until its job completed.
    const accepted = (await (await app.get('/v1/search?location=sandbox:async&limit=2', key)).json()) as Json;
    let job: Json = {};
    await expect.poll(async () => (job = (await (await app.get(accepted.data.pollUrl.replace(/^.*\/v1/, '/v1'), key)).json()) as Json).data.status, { timeout: 20_000, interval: 300 }).toBe('completed');
    recorded[doc.paths['/jobs/{jobId}'].get.operationId] = trim(job);
    if (process.env.UPDATE_CLIENT_TYPES) writeFileSync(FILE, `${JSON.stringify(recorded, null, 2)}\n`);
    const examples = loadResponseExamples();
    // Every operation shows a recorded answer (the lint test validates each against its schema).
    expect(Object.keys(examples).sort()).toEqual(Object.keys(recorded).sort());
  }, 60_000);
});
