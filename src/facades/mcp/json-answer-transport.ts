import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { JSONRPCMessageSchema, RELATED_TASK_META_KEY, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type JSONRPCRequest, type MessageExtraInfo, type Notification, type Request, type Result } from '@modelcontextprotocol/sdk/types.js';
import { writeAnswer } from './answer-json.js';
import { directCall } from './direct-call.js';
import { malformedToolCall } from './guards.js';

/**
 * The legacy era's transport for the call agents make most: a lone `tools/call` answered as one
 * JSON body. The SDK's StreamableHTTPServerTransport serves it by building a web Request from the
 * node request and writing a web Response back (JSON.stringify of the whole message, page and
 * escaped page included, then a TextEncoder pass), and it wants a new server per request: about
 * half of MCP's CPU per cached search (issue 29). This transport does what that one does for such
 * a request, minus the web objects, for one long-lived SDK Server: the SDK still parses,
 * dispatches and validates the call and its result and frames the answer, which goes out as the
 * same bytes and headers (answer-json.ts; test/facades/mcp-answer-bytes.test.ts).
 *
 * Calls of many clients share the server, and their JSON-RPC ids collide (every client starts at
 * 1), so each call gets an id of its own on the way in and its own back in the answer, in the
 * same place. A client that leaves before its answer has its call cancelled, as closing the
 * SDK's per-request server would abort it.
 *
 * Anything else (initialize, tools/list, notifications, batches, progress as SSE, tasks, a header
 * the SDK's transport refuses) keeps that transport, which also answers the errors.
 */
export class JsonAnswerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private readonly calls = new Map<number, { res: ServerResponse; id: JSONRPCRequest['id'] }>();
  private lastId = 0;
  private server?: { _onrequest?: (request: JSONRPCRequest, extra: MessageExtraInfo) => void };

  /**
   * Connects `server` and hands requests straight to its request dispatch (`_onrequest` of the
   * SDK's Protocol, 1.32.2 pinned), past the sorting connect() wraps onmessage in: that tries each
   * message as a result and as an error response first, two failing zod parses that cost as much
   * as the rest of the SDK's work on a call (6 µs), before taking it for the request plainToolCall
   * has already found it to be. Should an SDK lack the method, messages take the wrapper.
   */
  async serve(server: Protocol<Request, Notification, Result>): Promise<void> {
    await server.connect(this);
    this.server = server as unknown as NonNullable<JsonAnswerTransport['server']>;
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** Hands a request plainToolCall accepted to the server; the answer arrives through send. */
  handle(res: ServerResponse, request: JSONRPCRequest, extra: MessageExtraInfo): void {
    // Never 0: the SDK ignores a cancellation whose requestId is falsy.
    const id = (this.lastId = this.lastId >= Number.MAX_SAFE_INTEGER ? 1 : this.lastId + 1);
    this.calls.set(id, { res, id: request.id });
    res.once('close', () => {
      // No reason: the call is aborted as the SDK's server.close() aborts it.
      if (this.calls.delete(id)) this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
    });
    const ours = { ...request, id };
    if (typeof this.server?._onrequest === 'function') this.server._onrequest(ours, extra);
    else this.onmessage?.(ours, extra);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Only the answer goes out: the SDK's transport drops notifications in JSON mode too. (The
    // server sends responses, which have an id and no method, and nothing else to this transport.)
    if (!('id' in message) || 'method' in message) return;
    const call = this.calls.get(message.id as number);
    if (!call) return; // the client left; its call was cancelled
    this.calls.delete(message.id as number);
    // The client's id in the place of ours: the keys keep their order, so the text is the SDK's.
    writeAnswer(call.res, { ...message, id: call.id });
  }
}

/** @hono/node-server's (2.1.8) tests of a Host and a target it takes as they are. */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
const PLAIN_TARGET = /^\/[!#$&-;=?-\[\]_a-z~]*$/;

/**
 * Whether the SDK's node adapter (@hono/node-server) makes a web Request of this request, by its
 * own steps (newRequest, buildUrl); it answers 400 to the others, so those keep that transport.
 */
function adapterAccepts(req: IncomingMessage): boolean {
  const target = req.url ?? '';
  const host = req.headers.host;
  if (!host || target[0] !== '/') return false;
  if (PLAIN_HOST.test(host) && PLAIN_TARGET.test(target)) return true;
  const backslash = target.indexOf('\\');
  const query = target.indexOf('?');
  if (backslash !== -1 && (query === -1 || backslash < query)) return false;
  let url: URL;
  try {
    url = new URL(`${(req.socket as { encrypted?: boolean } | null)?.encrypted ? 'https' : 'http'}://${host}${target}`);
  } catch {
    return false;
  }
  return PLAIN_HOST.test(host) || url.hostname.length === host.length || url.hostname === (host.includes(':') ? host.replace(/:\d+$/, '') : host).toLowerCase();
}

/**
 * The request as the SDK's transport would hand it to the server, when it is a lone `tools/call`
 * to be answered as JSON that passes every check that transport makes; null for anything else.
 */
export function plainToolCall(req: IncomingMessage, body: unknown): JSONRPCRequest | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || (body as { method?: unknown }).method !== 'tools/call') return null;
  if (!adapterAccepts(req)) return null;
  const accept = req.headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return null;
  // Node keeps the first of repeated Content-Type lines, a web Request joins them: such a request
  // is left to the SDK's transport, which reads the joined value.
  if (!isJsonContentType(req.headers['content-type']) || repeated(req.rawHeaders, 'content-type')) return null;
  const version = req.headers['mcp-protocol-version'];
  if (version !== undefined && !(SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(version)) return null;
  // The commonest shape is a request and a valid tools/call as it stands (direct-call.ts).
  if (directCall(body)) return body as unknown as JSONRPCRequest;
  const parsed = JSONRPCMessageSchema.safeParse(body);
  // With a method and an id, the message parsed as a request (a notification has no id).
  if (!parsed.success || !('id' in parsed.data) || !('method' in parsed.data)) return null;
  const request = parsed.data as JSONRPCRequest;
  // A malformed call is answered by the per-request transport, which names the field (guards.ts).
  if (malformedToolCall(request)) return null;
  const params = request.params as { task?: unknown; _meta?: Record<string, unknown> } | undefined;
  // Progress turns the answer into an SSE stream; tasks and task-related calls keep the SDK's path.
  if (params?.task !== undefined || params?._meta?.progressToken !== undefined || params?._meta?.[RELATED_TASK_META_KEY] !== undefined) return null;
  return request;
}

function repeated(rawHeaders: string[], name: string): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === name.length && rawHeaders[i]!.toLowerCase() === name && ++seen > 1) return true;
  return false;
}
