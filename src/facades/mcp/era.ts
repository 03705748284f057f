/**
 * Which MCP era a request to `/mcp` speaks (MCP 2026-07-28, basic/versioning: "a request carrying
 * modern per-request `_meta` is served statelessly according to this revision; an `initialize`
 * request selects legacy semantics"). The SDK 2.x's `isLegacyRequest` makes the same decision but
 * wants a fetch `Request` built for every call; this reads the body we have already parsed and one
 * header, so the legacy hot path costs two property reads. test/unit/mcp-era.test.ts holds the two
 * to the same answers.
 */

export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/** The first revision without the `initialize` handshake; revisions are dates, so later ones sort after. */
const FIRST_MODERN_REVISION = '2026-07-28';
const REVISION = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Modern when any message claims a protocol version in `params._meta` (even one we do not serve:
 * the modern path answers it with -32022), or when the `MCP-Protocol-Version` header names a
 * modern revision (the modern path then refuses the missing envelope). Everything else, from
 * `initialize` to a claim-less `tools/call` of a client that has already initialized, is legacy.
 */
export function isModernRequest(versionHeader: string | string[] | undefined, body: unknown): boolean {
  const header = Array.isArray(versionHeader) ? versionHeader[0] : versionHeader;
  if (header !== undefined && REVISION.test(header.trim()) && header.trim() >= FIRST_MODERN_REVISION) return true;
  for (const message of Array.isArray(body) ? body : [body]) {
    const meta = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
    if (meta && typeof meta === 'object' && meta[PROTOCOL_VERSION_META_KEY] !== undefined) return true;
  }
  return false;
}
