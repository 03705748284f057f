import { SERVICE_VERSION } from '../../version.js';
import { SERVER_TITLE, iconsOf, type ToolDefinition } from '../mcp/definitions.js';

/**
 * What registries and clients read about our MCP server before connecting:
 *
 * - `server.json` (the MCP registry's format, schemas/mcp-registry/): name, description, the
 *   version from package.json, the remote transport URL and how to authenticate. The repository
 *   keeps one (test/contract/server-json.test.ts holds it to this function and to the schema),
 *   with the host as a variable, since each deployment has its own.
 * - the server card at `/.well-known/mcp.json` (SEP-2127, a superset of server.json): the same
 *   for this deployment's own URL, plus the protocol versions, capabilities and the tools.
 */

/**
 * The registry name (reverse DNS, one slash). Publishing needs the namespace proven to the
 * registry (a domain we own or a GitHub organisation), so a release changes it with the owner.
 */
export const REGISTRY_NAME = 'com.accommodation-data-service/stays';

/** At most 100 characters (the registry's limit). */
export const REGISTRY_DESCRIPTION = 'Search stays; listings, prices, calendars, reviews on Airbnb, Booking.com, Vrbo and Google Hotels.';

export const REGISTRY_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
const CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** Protocol versions /mcp serves: the modern revision, then the legacy ones (initialize). */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];

const AUTH_HEADER = {
  name: 'Authorization',
  description: 'Optional: "Bearer svc_live_…" (or svc_test_… for the free sandbox) for headless use. Without it the client signs in through OAuth 2.1.',
  isRequired: false,
  isSecret: true,
};

function remote(url: string) {
  return { type: 'streamable-http' as const, url, headers: [AUTH_HEADER] };
}

/** The registry entry; `url` holds `{host}`, which the `host` variable lets each user fill in. */
export function registryServerJson() {
  const host = { description: 'The host your Accommodation Data Service answers on (its PUBLIC_URL), e.g. api.example.com', isRequired: true };
  return {
    $schema: REGISTRY_SCHEMA,
    name: REGISTRY_NAME,
    title: SERVER_TITLE,
    description: REGISTRY_DESCRIPTION,
    version: SERVICE_VERSION,
    remotes: [{ ...remote('https://{host}/mcp'), variables: { host } }],
  };
}

/** The server card of this deployment, served at /.well-known/mcp.json. */
export function serverCard(publicUrl: string, tools: readonly ToolDefinition[]) {
  return {
    $schema: CARD_SCHEMA,
    name: REGISTRY_NAME,
    title: SERVER_TITLE,
    description: REGISTRY_DESCRIPTION,
    version: SERVICE_VERSION,
    websiteUrl: `${publicUrl}/docs`,
    icons: iconsOf(publicUrl),
    remotes: [
      {
        ...remote(`${publicUrl}/mcp`),
        supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
        authentication: { required: true, schemes: ['oauth2', 'bearer'] },
      },
    ],
    capabilities: { tools: { listChanged: false } },
    tools,
  };
}
