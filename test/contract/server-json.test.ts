import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { REGISTRY_DESCRIPTION, registryServerJson, serverCard } from '../../src/facades/agents/server-card.js';
import { SERVICE_VERSION } from '../../src/version.js';

/**
 * The repository's server.json (what the MCP registry publishes about us) against the registry's
 * schema vendored in schemas/mcp-registry/ (no network at test time), and against the code that
 * also serves the server card, so the file, the card and package.json's version cannot disagree.
 * After an intended change: UPDATE_CONTRACTS=1 npx vitest run test/contract/server-json.test.ts
 */
const Ajv = AjvModule as unknown as typeof AjvModule.default;
const addFormats = addFormatsModule as unknown as (ajv: InstanceType<typeof Ajv>) => void;
const FILE = 'server.json';

function validator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync('schemas/mcp-registry/server.schema.2025-12-11.json', 'utf8')) as object);
}

describe('server.json for the MCP registry', () => {
  it('is what the code describes, with the one version of package.json', () => {
    const fresh = `${JSON.stringify(registryServerJson(), null, 2)}\n`;
    if (process.env.UPDATE_CONTRACTS || !existsSync(FILE)) writeFileSync(FILE, fresh);
    expect(readFileSync(FILE, 'utf8')).toBe(fresh);
    const file = JSON.parse(readFileSync(FILE, 'utf8')) as { version: string; remotes: { type: string; url: string }[] };
    expect(file.version).toBe(SERVICE_VERSION);
    expect(file.remotes).toEqual([expect.objectContaining({ type: 'streamable-http', url: 'https://{host}/mcp' })]);
  });

  it('is valid against the registry schema, which does refuse what breaks its rules', () => {
    const validate = validator();
    const file = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
    // The schema is not a formality: each of these breaks one of its rules.
    expect(validate({ ...file, name: 'no-slash' })).toBe(false);
    expect(validate({ ...file, description: 'x'.repeat(101) })).toBe(false);
    expect(validate({ ...file, remotes: [{ type: 'streamable-http', url: 'ftp://nope' }] })).toBe(false);
    const { version: _version, ...unversioned } = file;
    expect(validate(unversioned)).toBe(false);
    expect(REGISTRY_DESCRIPTION.length).toBeLessThanOrEqual(100);
  });

  it('the server card is a valid server.json too (a superset of it), for this deployment', () => {
    const card = serverCard('https://api.example.com', []);
    const validate = validator();
    expect(validate(card), JSON.stringify(validate.errors)).toBe(true);
    expect(card.remotes[0]!.url).toBe('https://api.example.com/mcp');
  });
});
