import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * Checks the MCP transport makes before the SDK sees a request: which browser origins may call
 * `/mcp` (MCP transport 2025-11-25: servers MUST validate Origin, against DNS rebinding), and the
 * shape of `tools/call` params, which the SDK would otherwise answer with a raw zod dump.
 */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An absent Origin is a non-browser client; a present one must be ours, loopback or configured. */
export function originAllowed(origin: string | undefined, publicUrl: string, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === new URL(publicUrl).origin) return true;
  if ((url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname)) return true;
  return allowed.includes(url.origin);
}

/**
 * DNS rebinding defence for a service bound to loopback (the default): a page on a rebound name
 * reaches us with its own name as Host. Then only loopback names, the public host and configured
 * origins' hosts are served. Bound elsewhere (behind a proxy), Host is the proxy's business.
 */
export function hostAllowed(host: string | undefined, bindHost: string, publicUrl: string, allowedOrigins: readonly string[]): boolean {
  if (!LOOPBACK.has(bindHost) && bindHost !== '::1') return true;
  if (!host) return false;
  let name: string;
  try {
    name = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  if (LOOPBACK.has(name) || name === new URL(publicUrl).hostname) return true;
  return allowedOrigins.some((o) => URL.canParse(o) && new URL(o).hostname === name);
}

export interface RpcError {
  id: string | number | null;
  code: number;
  message: string;
}

/** A JSON-RPC error with the message as given (McpError would prefix "MCP error -32602:" once more). */
export function protocolError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

function invalidParams(id: RpcError['id'], message: string): RpcError {
  return { id, code: ErrorCode.InvalidParams, message };
}

/** The first malformed `tools/call` in a body (a message or a batch), named by field; null when none. */
export function badToolCall(body: unknown): RpcError | null {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params, id } = message as { method?: unknown; params?: unknown; id?: unknown };
    if (method !== 'tools/call') continue;
    const rpcId = typeof id === 'string' || typeof id === 'number' ? id : null;
    if (typeof params !== 'object' || params === null || Array.isArray(params)) return invalidParams(rpcId, 'Invalid params: params must be an object with name and arguments.');
    const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
    if (typeof name !== 'string' || name.length === 0) return invalidParams(rpcId, 'Invalid params: name must be the name of a tool (a string).');
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      return invalidParams(rpcId, `Invalid params: arguments must be an object, not ${args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args}.`);
    }
  }
  return null;
}
