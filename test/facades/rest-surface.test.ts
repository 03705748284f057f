import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/common-rules.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('the REST surface', () => {
  it('answers JSON 404 for unknown routes and 405 with Allow for wrong methods', async () => {
    const missing = await app.get('/v1/nothing-here');
    expect(missing.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    await expectError(missing, 404, 'not_found');
    await expectError(await app.get('/elsewhere'), 404, 'not_found');
    const res = await fetch(`${app.baseUrl}/v1/account`, { method: 'DELETE' });
    expect(res.headers.get('allow')).toBe('GET');
    await expectError(res, 405, 'method_not_allowed');
    const put = await fetch(`${app.baseUrl}/v1/search`, { method: 'PUT' });
    expect(put.headers.get('allow')).toBe('GET, POST');
  });

  it('serves health and readiness probes', async () => {
    expect(await (await app.get('/healthz')).json()).toEqual({ status: 'ok' });
    expect(await (await app.get('/readyz')).json()).toEqual({ status: 'ready' });
  });

  it('publishes an OpenAPI 3.1 document with the 202 answer and the real error body', async () => {
    const doc = await (await app.get('/v1/openapi.json')).json();
    expect(doc.openapi).toMatch(/^3\.1/);
    const paths = Object.keys(doc.paths).sort();
    expect(paths).toEqual(['/account', '/availability', '/jobs/{jobId}', '/listing/{platform}/{id}', '/platforms', '/price', '/price-compare', '/reviews', '/search']);
    expect(Object.keys(doc.paths['/search'])).toEqual(expect.arrayContaining(['get', 'post']));
    const search = doc.paths['/search'].get;
    expect(search.responses['202'].content['application/json'].schema.$ref).toBe('#/components/schemas/Accepted');
    expect(search.responses['202'].headers['Retry-After']).toBeDefined();
    expect(search.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(doc.paths['/account'].get.responses['202']).toBeUndefined();
    expect(doc.components.schemas.Error.properties.error.required).toEqual(expect.arrayContaining(['code', 'message', 'requestId', 'retryable', 'docUrl']));
    const params = search.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['location', 'checkIn', 'checkOut', 'childAges', 'platforms', 'limit', 'cursor', 'sort', 'currency']));
    const limit = search.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
    expect(doc.servers[0].url).toBe(`${app.baseUrl}/v1`);
  });

  it('serves the reference page, its renderer and the error catalogue from this origin only', async () => {
    const res = await app.get('/docs');
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const sources = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual(['/docs/scalar.js']);
    expect(html).toContain("'/v1/openapi.json'".replace(/'/g, '"'));
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await app.get('/docs/scalar.js');
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
    const errors = await (await app.get('/docs/errors')).text();
    for (const id of ['invalid_cursor', 'invalid_request.date_order', 'permission_denied.email_unverified']) expect(errors).toContain(`id="${id}"`);
  });

  it('never answers 500 for hostile input', async () => {
    const { key } = await app.newKey('sandbox');
    const hostile = [
      '/v1/search?location=%00', '/v1/search?location=' + 'x'.repeat(5000), '/v1/search?limit=1e400&location=a',
      '/v1/search?location=a&childAges=-1', '/v1/search?location=a&children=1&childAges=1,2,3', '/v1/search?location[]=a&location[]=b',
      '/v1/search?location=a&platforms=', '/v1/search?location=a&cursor=' + 'A'.repeat(3000), '/v1/search?location=a&minGuestRating=NaN',
      '/v1/listing/airbnb/' + '%2F'.repeat(300), '/v1/listing/%ZZ/1', '/v1/reviews?platform=airbnb&url=' + encodeURIComponent('https://[::1]:80/rooms/1'),
      '/v1/availability?platform=airbnb&listingIds=' + ','.repeat(100) + '&startDate=2030-01-01&endDate=2030-01-02',
      '/v1/price-compare?name=a&checkIn=9999-99-99&checkOut=2030-01-01', '/v1/search?__proto__=1&location=a&constructor=2',
    ];
    for (const path of hostile) {
      const res = await app.get(path, key);
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get('x-request-id'), path).toMatch(/^req_/);
    }
    const bodies = ['[]', '"x"', 'null', '{"location": {"$gt": 1}}', '{"location":"a","limit":"5"}'];
    for (const body of bodies) {
      const res = await fetch(`${app.baseUrl}/v1/search`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body });
      expect(res.status, body).toBeLessThan(500);
    }
    const big = await fetch(`${app.baseUrl}/v1/search`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ location: 'x'.repeat(200_000) }) });
    await expectError(big, 413, 'payload_too_large');
  });
});

describe('paths and faces that must not confuse routing or billing', () => {
  it('refuses dot segments and backslashes instead of resolving them to another route', async () => {
    const { key } = await app.newKey('sandbox');
    // fetch would resolve these itself; node:http sends the path as written
    const rawGet = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${app.baseUrl}/`, { path, headers: { Authorization: `Bearer ${key}` } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const path of ['/v1/jobs/x\\..\\..\\search?location=Lisbon', '/v1/listing/airbnb/x/../../../account', '/v1/listing/airbnb/%2e', '/v1/listing/airbnb/%2E%2E', '/v1/listing/airbnb/a%5Cb']) {
      const res = await rawGet(path);
      expect({ path, status: res.status, code: JSON.parse(res.body).error.code }).toEqual({ path, status: 404, code: 'not_found' });
    }
  });

  it('authenticates before reading a badly encoded path', async () => {
    const res = await app.get('/v1/listing/airbnb/%E0%A4%A');
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    await expectError(res, 401, 'unauthenticated');
  });

  it('names a missing enum parameter as missing, and refuses an empty platform list', async () => {
    const { key } = await app.newKey('sandbox');
    const missing = await expectError(await app.get('/v1/reviews?listingId=1', key), 400, 'missing_parameter');
    expect(missing.param).toBe('platform');
    const empty = await expectError(await app.get('/v1/search?location=Lisbon&platforms=', key), 400, 'invalid_request');
    expect(empty.param).toBe('platforms');
    const body = (await (await app.get('/v1/search?location=Lisbon&limit=2&cursor=', key)).json()) as { meta: { pagination: { cursor: string | null } } };
    expect(body.meta.pagination.cursor).toBeNull();
  });

  it('answers malformed tRPC input with 400, and serves one call per request (no batching)', async () => {
    const { key } = await app.newKey('sandbox');
    const bad = await app.get('/trpc/search?input=notjson', key);
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { data: { apiError: { error: { code: string } } } } };
    expect(body.error.data.apiError.error.code).toBe('invalid_request');
    const batch = await app.get(`/trpc/account,account?batch=1&input=${encodeURIComponent('{"0":{},"1":{}}')}`, key);
    expect(batch.status).toBeGreaterThanOrEqual(400);
    expect(batch.status).toBeLessThan(500);
  });
});
