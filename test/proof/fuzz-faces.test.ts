import fc from 'fast-check';
import { pino } from 'pino';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { REQUEST_ID, expectError } from '../support/common-rules.js';

/**
 * Transport-level garbage on the faces the OpenAPI fuzz does not reach: `/trpc` and `/mcp`
 * (random methods, media types, bodies, nesting and procedure names), plus the deep-nesting case
 * on REST. For every answer: no 5xx, a JSON body (or none), never an HTML page or a stack.
 */
const RUNS = Number(process.env.FUZZ_FACES_RUNS ?? 400);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);

const lines: string[] = [];
let app: TestApp;
let http: Pool;
let key: string;

beforeAll(async () => {
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  app = await startTestApp({ log });
  http = new Pool(app.baseUrl, { connections: 8, pipelining: 1, headersTimeout: 15_000, bodyTimeout: 15_000 });
  ({ key } = await app.newKey('sandbox'));
});
afterAll(async () => {
  await http?.close();
  await app?.close();
});

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND'];
const CONTENT_TYPES = [undefined, 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=bogus', 'application/vnd.api+json'];
const body = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 200 }),
  fc.json({ maxDepth: 4 }),
  fc.nat({ max: 5_000 }).map(deep),
  fc.constantFrom('{', '\u0000', '{"jsonrpc":"2.0"}', '[]', 'null', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_stays","arguments":{"location":"\u0000"}}}'),
  fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0', 2), id: fc.oneof(fc.nat(), fc.string(), fc.constant(null)), method: fc.constantFrom('initialize', 'tools/list', 'tools/call', 'ping', 'x/y', ''), params: fc.anything({ maxDepth: 3 }) }).map((m) => JSON.stringify(m)),
  fc.array(fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), method: fc.constantFrom('tools/list', 'tools/call') }), { maxLength: 3 }).map((m) => JSON.stringify(m)),
);
const trpcPath = fc.oneof(
  fc.constantFrom('search', 'listing', 'account', 'job', 'search,account', 'nope', '', '%00', '..%2f', '__proto__', 'constructor'),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
);
const trpcQuery = fc.oneof(fc.constant(''), fc.string({ maxLength: 80 }).map((s) => `?input=${encodeURIComponent(s)}`), fc.json({ maxDepth: 3 }).map((s) => `?input=${encodeURIComponent(s)}`), fc.constantFrom('?batch=1&input={}', '?input=%7B', '?input=' + encodeURIComponent(`{"location":${deep(60)}}`)));

interface Sent { method: string; path: string; contentType?: string; accept?: string; auth: boolean; body?: string }
interface Answer { status: number; contentType: string; text: string; requestId?: string }

async function send(s: Sent): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (s.auth) headers.authorization = `Bearer ${key}`;
  if (s.contentType) headers['content-type'] = s.contentType;
  if (s.accept) headers.accept = s.accept;
  const sendsBody = s.body !== undefined && !['GET', 'HEAD'].includes(s.method);
  const res = await http.request({ method: s.method, path: s.path, headers, ...(sendsBody ? { body: s.body } : {}) });
  const requestId = res.headers['x-request-id'];
  return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), text: await res.body.text(), ...(typeof requestId === 'string' ? { requestId } : {}) };
}

function problemsOf(a: Answer, face: 'trpc' | 'mcp'): string[] {
  const problems: string[] = [];
  if (face === 'trpc') {
    if (!a.requestId || !REQUEST_ID.test(a.requestId)) problems.push(`X-Request-Id ${a.requestId}`);
    const echoed = a.status >= 400 && a.text ? (JSON.parse(a.text) as { error?: { data?: { apiError?: { error?: { requestId?: string } } } } }).error?.data?.apiError?.error?.requestId : a.requestId;
    if (echoed !== a.requestId) problems.push(`body request id ${echoed} differs from the header`);
  }
  if (a.status >= 500) problems.push(`status ${a.status}`);
  if (a.text.length > 0 && !/^application\/json/.test(a.contentType) && !/^text\/event-stream/.test(a.contentType)) problems.push(`content-type ${a.contentType}`);
  if (/<html|at .*\(.*:\d+:\d+\)|node_modules/i.test(a.text)) problems.push('HTML or a stack in the body');
  return problems;
}

async function fuzz(cases: Sent[], face: 'trpc' | 'mcp'): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < cases.length) {
        const c = cases[next++]!;
        const a = await send(c).catch((err: unknown) => ({ status: 0, contentType: '', text: `no answer: ${String(err)}` }));
        let problems: string[];
        try {
          problems = a.status === 0 ? [a.text] : problemsOf(a, face);
        } catch (err) {
          problems = [`unreadable answer: ${String(err)}`];
        }
        if (problems.length) failures.push(`${c.method} ${c.path} [${c.contentType}] ${JSON.stringify(c.body?.slice(0, 80))}: ${problems.join('; ')} -> ${a.text.slice(0, 200)}`);
      }
    }),
  );
  return failures;
}

describe('REST: deeply nested JSON', () => {
  it('answers 400 naming the body, with the real request id and a docUrl on the public base, and logs it', async () => {
    const res = await fetch(`${app.baseUrl}/v1/search`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: `{"location":"Lisbon","platforms":${deep(4_500)}}` });
    const error = await expectError(res, 400, 'invalid_request');
    expect(error).toMatchObject({ param: 'body', subCode: 'json_too_deep', docUrl: `${app.deps.config.publicUrl}/docs/errors#invalid_request.json_too_deep` });
    await new Promise((r) => setTimeout(r, 50));
    expect(lines.some((l) => l.includes(error.requestId) && l.includes('"status":400'))).toBe(true);
  });

  it('still reads ordinary nesting (a body at the limit is judged by the schema, not refused)', async () => {
    const res = await fetch(`${app.baseUrl}/v1/search`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: `{"location":"Lisbon","platforms":${deep(60)}}` });
    const error = await expectError(res, 400, 'invalid_request');
    expect(error.param).toMatch(/^platforms/);
  });
});

describe('tRPC face', () => {
  it('answers 405 with Allow for PUT, DELETE, PATCH, OPTIONS and TRACE, in its own error format with the request id', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'POST']) {
      const res = await http.request({ method, path: '/trpc/search', headers: { authorization: `Bearer ${key}` } });
      const text = await res.body.text();
      expect({ method, status: res.statusCode }).toEqual({ method, status: 405 });
      expect(res.headers.allow).toBe('GET, HEAD');
      const body = JSON.parse(text) as { error: { code: number; data: { code: string; httpStatus: number; apiError: { error: { code: string; requestId: string } } } } };
      expect(body.error).toMatchObject({ code: -32005, data: { code: 'METHOD_NOT_SUPPORTED', httpStatus: 405, apiError: { error: { code: 'method_not_allowed', requestId: res.headers['x-request-id'] } } } });
      expect(res.headers['x-request-id']).toMatch(REQUEST_ID);
    }
  });

  it('survives transport garbage: no 5xx, JSON only', async () => {
    const cases = fc.sample(
      fc.record({ method: fc.constantFrom(...METHODS), path: fc.tuple(trpcPath, trpcQuery).map(([p, q]) => `/trpc/${p}${q}`), contentType: fc.constantFrom(...CONTENT_TYPES), auth: fc.boolean(), body }),
      { numRuns: RUNS, seed: SEED },
    ) as Sent[];
    expect(await fuzz(cases, 'trpc')).toEqual([]);
  }, 120_000);
});

describe('MCP transport', () => {
  it('survives transport garbage: no 5xx, JSON only', async () => {
    const cases = fc.sample(
      fc.record({
        method: fc.constantFrom(...METHODS),
        path: fc.constantFrom('/mcp', '/mcp?x=1', '/mcp?access_token=abc'),
        contentType: fc.constantFrom(...CONTENT_TYPES),
        accept: fc.constantFrom('application/json, text/event-stream', 'application/json', 'text/html', '*/*'),
        auth: fc.boolean(),
        body,
      }),
      { numRuns: RUNS, seed: SEED },
    ) as Sent[];
    expect(await fuzz(cases, 'mcp')).toEqual([]);
  }, 120_000);
});
