import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/adapters/system/clock.js';
import type { Deprecation } from '../../src/domain/lifecycle/deprecations.js';
import type { AppRouter } from '../../src/router/app-router.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The deprecation machinery on REST, tRPC and MCP, driven by a table of test-only entries passed
 * through the deps (the shipped table is empty): the value "airbnb" of search's platforms is
 * deprecated and still served; "vrbo" is past its sunset and answers 410 gone.
 */
const TABLE: Deprecation[] = [
  { target: { kind: 'value', operation: 'search', parameter: 'platforms', value: 'airbnb' }, deprecatedOn: '2027-01-15', sunsetOn: '2027-08-01', replacement: 'Ask another platform.', changelogAnchor: 'test-airbnb' },
  { target: { kind: 'value', operation: 'search', parameter: 'platforms', value: 'vrbo' }, deprecatedOn: '2026-01-01', sunsetOn: '2026-07-01', replacement: 'Ask booking instead.', changelogAnchor: 'test-vrbo' },
  { target: { kind: 'parameter', operation: 'reviews', parameter: 'q' }, deprecatedOn: '2027-01-15', sunsetOn: '2027-08-01', replacement: 'Filter the reviews yourself.', changelogAnchor: 'test-q' },
];
const clock = new FakeClock('2027-03-01T09:00:00Z');
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ clock, deprecations: TABLE });
  key = (await app.newKey('sandbox')).key;
});
afterAll(() => app.close());

const DEPRECATION = `@${Date.parse('2027-01-15T00:00:00Z') / 1000}`;
const SUNSET = 'Sun, 01 Aug 2027 00:00:00 GMT';

function expectNoticeHeaders(res: Response, anchor: string): void {
  expect(res.headers.get('deprecation')).toBe(DEPRECATION);
  expect(res.headers.get('sunset')).toBe(SUNSET);
  expect(res.headers.get('link')).toBe(`<${app.baseUrl}/changelog#${anchor}>; rel="deprecation"`);
}

const deprecatedWarning = (warnings: { code: string; message: string }[]) => warnings.filter((w) => w.code === 'deprecated_usage');

describe('deprecated items on REST', () => {
  it('answers a deprecated value with the headers and a deprecated_usage warning', async () => {
    const res = await app.get('/v1/search?location=Lisbon&platforms=airbnb&limit=2', key);
    expect(res.status).toBe(200);
    expectNoticeHeaders(res, 'test-airbnb');
    const body = (await res.json()) as { meta: { warnings: { code: string; message: string }[] } };
    const [warning] = deprecatedWarning(body.meta.warnings);
    expect(warning?.message).toMatch(/value "airbnb" of parameter "platforms" of search is deprecated since 2027-01-15.*2027-08-01.*Ask another platform/);
  });

  it('keeps the warning in the compact view and marks a deprecated parameter', async () => {
    const compact = await app.get('/v1/search?location=Lisbon&platforms=airbnb&limit=2&view=compact', key);
    expect(deprecatedWarning(((await compact.json()) as { meta: { warnings: { code: string; message: string }[] } }).meta.warnings)).toHaveLength(1);
    const reviews = await app.get('/v1/reviews?platform=airbnb&listingId=41300001&q=clean', key);
    expect(reviews.status).toBe(200);
    expectNoticeHeaders(reviews, 'test-q');
  });

  it('leaves calls that use nothing deprecated alone', async () => {
    const res = await app.get('/v1/search?location=Lisbon&platforms=booking&limit=2', key);
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBeNull();
    expect(deprecatedWarning(((await res.json()) as { meta: { warnings: { code: string; message: string }[] } }).meta.warnings)).toEqual([]);
  });

  it('answers 410 gone past the sunset, naming the parameter, free of charge', async () => {
    const res = await app.get('/v1/search?location=Lisbon&platforms=vrbo&limit=2', key);
    expect(res.status).toBe(410);
    expect(res.headers.get('sunset')).toBe('Wed, 01 Jul 2026 00:00:00 GMT');
    const body = (await res.json()) as { error: { code: string; param: string; message: string; docUrl: string } };
    expect(body.error).toMatchObject({ code: 'gone', param: 'platforms' });
    expect(body.error.message).toMatch(/removed on 2026-07-01\. Ask booking instead/);
    expect(body.error.docUrl).toMatch(/\/docs\/errors#gone$/);
  });

  it('marks the items in the OpenAPI document and serves the changelog the Link points to', async () => {
    const doc = (await (await fetch(`${app.baseUrl}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters?: { name: string; deprecated?: boolean; description?: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> }>> };
    const q = doc.paths['/reviews']!.get!.parameters!.find((p) => p.name === 'q')!;
    expect(q.deprecated).toBe(true);
    const platforms = doc.paths['/search']!.get!.parameters!.find((p) => p.name === 'platforms')!;
    expect(platforms.description).toMatch(/`airbnb` is deprecated/);
    expect(doc.paths['/search']!.get!.responses['410']).toBeDefined();
    expect(Object.keys(doc.paths['/search']!.get!.responses['200']!.headers!)).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
    const changelog = await fetch(`${app.baseUrl}/changelog`);
    expect(changelog.status).toBe(200);
    expect(await changelog.text()).toMatch(/^# Changelog/);
  });
});

describe('deprecated items on tRPC', () => {
  const client = () => createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: { Authorization: `Bearer ${key}` } })] });

  it('sends the headers and the warning, and 410 past the sunset', async () => {
    const res = await fetch(`${app.baseUrl}/trpc/search?input=${encodeURIComponent(JSON.stringify({ location: 'Lisbon', platforms: ['airbnb'], limit: 2 }))}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expectNoticeHeaders(res, 'test-airbnb');
    const answer = await client().search.query({ location: 'Lisbon', platforms: ['airbnb'], limit: 2 });
    if (answer.kind !== 'result') throw new Error('expected a result');
    expect(deprecatedWarning(answer.meta.warnings)).toHaveLength(1);
    const err = await client().search.query({ location: 'Lisbon', platforms: ['vrbo'], limit: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    const data = (err as TRPCClientError<AppRouter>).data as unknown as { httpStatus: number; apiError: { error: { code: string; param: string } } };
    expect(data.httpStatus).toBe(410);
    expect(data.apiError.error).toMatchObject({ code: 'gone', param: 'platforms' });
  });
});

describe('deprecated items on MCP', () => {
  it('carries the warning in structuredContent and answers gone past the sunset', async () => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const ok = (await client.callTool({ name: 'search_stays', arguments: { location: 'Lisbon', platforms: ['airbnb'], limit: 2 } })) as unknown as { isError?: boolean; structuredContent: { meta: { warnings: { code: string; message: string }[] } } };
    expect(ok.isError).toBeFalsy();
    expect(deprecatedWarning(ok.structuredContent.meta.warnings)[0]?.message).toMatch(/deprecated since 2027-01-15/);
    const gone = (await client.callTool({ name: 'search_stays', arguments: { location: 'Lisbon', platforms: ['vrbo'], limit: 2 } })) as { isError?: boolean; content: { text: string }[] };
    expect(gone.isError).toBe(true);
    expect(JSON.parse(gone.content[0]!.text)).toMatchObject({ error: { code: 'gone', param: 'platforms' } });
    await client.close();
  });
});
