import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/facades/rest/openapi.js';
import { appRouter } from '../../src/router/app-router.js';
import { SERVICE_VERSION } from '../../src/version.js';

/** The three places a version is stated agree: package.json (src/version.ts), OpenAPI info.version, CHANGELOG.md. */
const changelog = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8');
const releases = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map((m) => ({ version: m[1]!, date: m[2]! }));

describe('CHANGELOG.md', () => {
  it('names the service version as its latest release, as OpenAPI info.version does', () => {
    expect(releases[0]?.version).toBe(SERVICE_VERSION);
    expect(buildOpenApiDocument(appRouter, 'http://localhost').info.version).toBe(SERVICE_VERSION);
  });

  it('is in the Keep a Changelog form: Unreleased first, releases newest first with dates, known section kinds', () => {
    expect(changelog.startsWith('# Changelog\n')).toBe(true);
    expect(changelog.indexOf('## [Unreleased]')).toBeLessThan(changelog.indexOf(`## [${releases[0]!.version}]`));
    const dates = releases.map((r) => r.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    for (const [, kind] of changelog.matchAll(/^### (.+)$/gm)) expect(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']).toContain(kind);
  });
});
