import { readFileSync } from 'node:fs';

/**
 * The one version number of the service: package.json's, also shown as the OpenAPI document's
 * `info.version` and the MCP server's version. Read once, at import, from the file the release
 * process bumps, so the three can never disagree.
 */
export const SERVICE_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
