import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/**
 * JSON-RPC batches in the legacy era. MCP 2025-03-26 lets a POST body be a batch; 2025-06-18
 * removed batching (basic/transports: the body "MUST be a single JSON-RPC request, notification,
 * or response"), and 2026-07-28 keeps them out (the SDK 2.x refuses one with -32600). The SDK
 * 1.x transport takes a batch whatever revision the client negotiated, so the revision's rule is
 * kept here, before any path: a batch from a client on 2025-06-18 or later is refused whole, and a
 * 2025-03-26 batch goes on to the SDK's transport, which answers every member. A client names its
 * revision in MCP-Protocol-Version; without one, a server assumes 2025-03-26 (same section).
 */
const LAST_REVISION_WITH_BATCHES = '2025-03-26';

/** Why the batch `body` is refused whole (a -32600 message), or null to serve it. */
export function batchRefusal(header: string | string[] | undefined, body: unknown[]): string | null {
  const versionHeader = Array.isArray(header) ? header[0] : header;
  // JSON-RPC 2.0 section 6: an empty array is an Invalid Request, answered with one error.
  if (body.length === 0) return 'Invalid Request: the batch is empty.';
  // A version the SDK does not know is refused by its transport (400, naming the versions it serves).
  const known = versionHeader !== undefined && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(versionHeader);
  if (known && versionHeader > LAST_REVISION_WITH_BATCHES) {
    return `Invalid Request: MCP ${versionHeader} has no JSON-RPC batches (2025-06-18 removed them); send each message in a request of its own.`;
  }
  const repeated = repeatedRequestId(body);
  if (repeated !== null) return `Invalid Request: two requests of the batch have the id ${JSON.stringify(repeated)}; give each its own, so that each answer can be told apart.`;
  return null;
}

/**
 * An id two requests of the batch share, or null. MCP (basic, Requests) wants every request id
 * unique in a session; the SDK's transport files answers by id, so of two requests with one id
 * only one answer would go out, and the other call would run (and be billed) unanswered.
 */
function repeatedRequestId(body: unknown[]): string | number | null {
  const seen = new Set<unknown>();
  for (const message of body) {
    const id = typeof message === 'object' && message !== null && 'method' in message ? (message as { id?: unknown }).id : undefined;
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return null;
}
