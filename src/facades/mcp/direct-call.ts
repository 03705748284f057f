import type { ServerResponse } from 'node:http';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { GoneFlag } from '../../router/client-gone.js';
import { TOOLS } from './tools.js';
import { writeAnswer } from './answer-json.js';

/**
 * The commonest tools/call, answered without the SDK server (issue 29): after the SDK's transport
 * checks (plainToolCall), a call of exactly this shape is one the SDK's server dispatches to our
 * tools/call handler with nothing else to do. Its request parse (JSON-RPC, then tools/call), its
 * per-call AbortController and extra object, and its result parse cost more CPU than everything
 * else MCP adds to a cached search but the bytes. This path does what the SDK's server does for
 * such a call, and the answer is the bytes it would send
 * (test/facades/mcp-answer-bytes.test.ts sends every call through both); anything else keeps the
 * SDK's server (json-answer-transport.ts).
 */
export interface DirectCall {
  id: string | number;
  name: string;
  args: Record<string, unknown> | undefined;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS = new Set(['name', 'arguments']);
const TOOL_NAMES = new Set(TOOLS.map((t) => t.name));

function plainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function onlyKeys(value: Record<string, unknown>, allowed: Set<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/**
 * The call when `body` is `{ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments? } }`
 * and nothing more, with an id the SDK takes (a string or a safe integer), a tool we have, and
 * arguments that are an object: each such message is a JSON-RPC request (the SDK's strict schema)
 * and a valid tools/call (its CallToolRequestSchema), which test/unit/mcp-direct-call.test.ts holds
 * against the SDK's own schemas. Null for anything else, which the SDK's server answers.
 */
export function directCall(body: unknown): DirectCall | null {
  if (!plainObject(body) || !onlyKeys(body, REQUEST_KEYS)) return null;
  const { jsonrpc, id, method, params } = body;
  if (jsonrpc !== '2.0' || method !== 'tools/call') return null;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return null;
  if (!plainObject(params) || !onlyKeys(params, PARAMS_KEYS)) return null;
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || !TOOL_NAMES.has(name)) return null;
  if (args !== undefined && !plainObject(args)) return null;
  return { id, name, args };
}

/** The result callTool makes for a successful call, which the SDK's result parse copies key for key. */
function isToolAnswer(result: unknown): boolean {
  if (!plainObject(result)) return false;
  const keys = Object.keys(result);
  if (keys.length !== 2 || keys[0] !== 'content' || keys[1] !== 'structuredContent') return false;
  const content = result.content;
  if (!Array.isArray(content) || content.length !== 1) return false;
  const item = content[0] as unknown;
  if (!plainObject(item)) return false;
  const itemKeys = Object.keys(item);
  return itemKeys.length === 2 && itemKeys[0] === 'type' && itemKeys[1] === 'text' && item.type === 'text' && typeof item.text === 'string' && plainObject(result.structuredContent);
}

/**
 * Answers `call` with what `run` gives, as the SDK's server and transport would: the result in the
 * form the SDK's result parse gives (a successful tool answer already has it; anything else, a
 * tool error among them, goes through that parse), an error thrown as a JSON-RPC error, and no
 * answer at all once the client has left (the SDK's server drops a cancelled call's answer).
 */
export async function answerDirect(res: ServerResponse, call: DirectCall, gone: GoneFlag, run: () => Promise<unknown>): Promise<void> {
  let message: unknown;
  try {
    let result = await run();
    if (!isToolAnswer(result)) {
      const parsed = CallToolResultSchema.safeParse(result);
      // The SDK's own refusal, word for word (McpError prefixes its message with the code).
      if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${parsed.error.message}`);
      result = parsed.data;
    }
    message = { result, jsonrpc: '2.0', id: call.id };
  } catch (err) {
    const error = err as { code?: unknown; message?: string; data?: unknown };
    message = {
      jsonrpc: '2.0',
      id: call.id,
      error: { code: Number.isSafeInteger(error.code) ? error.code : ErrorCode.InternalError, message: error.message ?? 'Internal error', ...(error.data !== undefined && { data: error.data }) },
    };
  }
  if (gone.aborted || res.destroyed) return;
  writeAnswer(res, message);
}
