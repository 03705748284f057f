import { existsSync, readFileSync } from 'node:fs';

const FILE = new URL('../../../../fixtures/openapi/response-examples.json', import.meta.url);

/**
 * A real sandbox answer per operation id, shown as the 200 example of the reference. Recorded by
 * test/contract/openapi-examples.test.ts (which also proves the parameter examples make a valid
 * request), trimmed to two items per list.
 */
export function loadResponseExamples(): Record<string, unknown> {
  return existsSync(FILE) ? (JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>) : {};
}
