import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { buildOpenApiDocument } from '../../src/facades/rest/openapi.js';
import { collectRefs } from '../../src/facades/rest/openapi/refs.js';
import { loadResponseExamples } from '../../src/facades/rest/openapi/examples.js';
import { appRouter } from '../../src/router/app-router.js';
import { SERVICE_VERSION } from '../../src/version.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// A deployment's public URL: the linter rightly refuses localhost servers in a published document.
const doc = buildOpenApiDocument(appRouter, 'https://api.stays.test', { today: '2027-01-10', responseExamples: loadResponseExamples() }) as Json;
const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
const file = join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(doc));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const operations = Object.entries(doc.paths as Json).flatMap(([path, ops]) => Object.entries(ops as Json).map(([method, op]) => ({ path, method, op: op as Json })));

describe('the OpenAPI document', () => {
  it('has every $ref resolving inside the document', () => {
    for (const ref of collectRefs(doc)) {
      expect(ref, ref).toMatch(/^#\/components\/(schemas|headers)\//);
      const [, , kind, name] = ref.split('/');
      expect(doc.components[kind!][name!], ref).toBeDefined();
    }
  });

  it('validates with swagger-parser', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('lints clean with redocly (recommended rules, redocly.yaml)', () => {
    const run = spawnSync(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--config', 'redocly.yaml', '--format', 'stylish'], { encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
    const report = `${run.stdout}\n${run.stderr}`;
    expect(report).toContain('Your API description is valid');
    // stylish lists each problem as `line:col  warning|error  rule  message`.
    expect(report.split('\n').filter((l) => /^\s+\d+:\d+\s+(warning|error)\s/.test(l))).toEqual([]);
    expect(run.status).toBe(0);
  });

  it('carries one version number, the package one', () => {
    expect(doc.info.version).toBe(SERVICE_VERSION);
  });

  it('types every parameter, with enums for platform, platforms, propertyType and amenities', () => {
    for (const { path, method, op } of operations) {
      for (const p of (op.parameters ?? []) as Json[]) {
        const s = p.schema.type === 'array' ? p.schema.items : p.schema;
        expect(s.type ?? s.$ref, `${method} ${path} ${p.name}`).toBeDefined();
      }
    }
    const search = (doc.paths['/search'].get.parameters as Json[]).reduce<Json>((m, p) => ({ ...m, [p.name]: p }), {});
    expect(search.platforms.schema.items.$ref).toBe('#/components/schemas/Platform');
    expect(search.propertyType.schema.items.$ref).toBe('#/components/schemas/PropertyType');
    expect(search.amenities.schema.items.$ref).toBe('#/components/schemas/Amenity');
    expect(doc.components.schemas.Platform.enum).toContain('airbnb');
    expect(doc.components.schemas.Amenity.enum.length).toBeGreaterThan(5);
  });

  it('describes the GET search parameters as the POST body does, and says which price sorts and filters use', () => {
    const params = doc.paths['/search'].get.parameters as Json[];
    const body = doc.paths['/search'].post.requestBody.content['application/json'].schema.properties as Json;
    for (const p of params) {
      if (body[p.name]?.description) expect(p.description, p.name).toContain(body[p.name].description.slice(0, 20));
    }
    const by = (n: string) => params.find((p) => p.name === n)!.description as string;
    expect(by('priceMax')).toContain('nightlyPrice');
    expect(by('sort')).toContain('totalPrice');
    expect(by('checkIn')).toMatch(/price/);
  });

  it('has examples that differ where a rule says they must (checkOut after checkIn)', () => {
    for (const { op } of operations) {
      const ex = Object.fromEntries(((op.parameters ?? []) as Json[]).filter((p) => 'example' in p).map((p) => [p.name, p.example]));
      if (ex.checkIn) expect(ex.checkOut > ex.checkIn).toBe(true);
      if (ex.startDate) expect(ex.endDate > ex.startDate).toBe(true);
    }
  });

  it('documents headers, the 202 body, each error status with its codes, and the bearer scheme', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    const documented = new Set<string>();
    for (const { path, op } of operations) {
      const ok = op.responses['200'];
      expect(Object.keys(ok.headers)).toEqual(expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy']));
      if (!['/account', '/platforms', '/jobs/{jobId}'].includes(path)) {
        expect(op.responses['202'].content['application/json'].schema.$ref).toBe('#/components/schemas/Accepted');
        expect(Object.keys(op.responses['202'].headers)).toContain('Retry-After');
      }
      expect(Object.keys(op.responses['401'].headers)).toContain('WWW-Authenticate');
      expect(Object.keys(op.responses['429'].headers)).toContain('Retry-After');
      for (const [status, r] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400) continue;
        for (const ex of Object.values(r.content['application/json'].examples as Json)) documented.add(ex.value.error.code);
      }
    }
    const accepted = doc.components.schemas.Accepted;
    expect(accepted.properties.data.$ref).toBe('#/components/schemas/JobHandle');
    // Every code an operation can answer has an example (405 is answered by the router, before any operation).
    expect(ERROR_CODES.filter((c) => !documented.has(c))).toEqual(['method_not_allowed']);
  });
});
