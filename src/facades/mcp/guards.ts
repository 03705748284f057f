import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * Checks the MCP transport makes before the SDK's servers see a request: which browser origins may
 * call `/mcp` (MCP transport 2025-11-25: servers MUST validate Origin, against DNS rebinding), and
 * the shape of `tools/call` params, which those servers would answer with a raw zod dump. The
 * params are checked per message, after the transport's own checks, so that a batch's other
 * members and the modern era's version and header checks are answered as the SDK answers them.
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
  id: string | number;
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

/**
 * What is wrong with a `tools/call` request's params, named by field; null when nothing is, or
 * when the message is no tools/call request (a notification has no id and gets no answer). The
 * SDK servers of both eras would refuse such a call with a raw zod dump.
 */
export function malformedToolCall(message: unknown): RpcError | null {
  if (typeof message !== 'object' || message === null) return null;
  const { method, params, id } = message as { method?: unknown; params?: unknown; id?: unknown };
  if (method !== 'tools/call' || (typeof id !== 'string' && typeof id !== 'number')) return null;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return invalidParams(id, 'Invalid params: params must be an object with name and arguments.');
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || name.length === 0) return invalidParams(id, 'Invalid params: name must be the name of a tool (a string).');
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    return invalidParams(id, `Invalid params: arguments must be an object, not ${args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args}.`);
  }
  return null;
}

/**
 * Has `transport` (connected to an SDK 1.x server) answer a malformed tools/call itself, as one
 * message among the others: each member of a batch is answered, in the batch's answer, whatever
 * its neighbours are. Everything else goes on to the server.
 */
export function answerMalformedToolCalls(transport: Transport): void {
  const dispatch = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    const bad = malformedToolCall(message);
    if (!bad) return dispatch(message, extra);
    // As the SDK's Protocol does: a failed send goes to onerror, never an unhandled rejection.
    transport.send({ jsonrpc: '2.0', id: bad.id, error: { code: bad.code, message: bad.message } }).catch((err: unknown) => transport.onerror?.(err as Error));
  };
}
