import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, GetTaskPayloadRequestSchema, ListToolsRequestSchema, McpError, type CallToolResult, type CreateTaskResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../../deps.js';
import { errorBody } from '../../domain/errors.js';
import type { JobRecord } from '../../domain/ports/jobs.js';
import type { Principal } from '../../domain/ports/accounts.js';
import { syncAnswerOf } from '../../router/retries/prefer-wait.js';
import { jobTaskStore, taskOf, taskResultHandler } from './tasks.js';
import { appRouter } from '../../router/app-router.js';
import { proceduresOf } from '../../router/trpc-internals.js';
import { createContext } from '../../router/context.js';
import { toServiceError } from '../../router/errors.js';
import { answerMalformedToolCalls, protocolError } from './guards.js';
import { createProgress, waitInline, type SendProgress } from './progress.js';
import { TOOLS, type ToolSpec } from './tools.js';
import { INSTRUCTIONS, serverInfoOf, toolDefinitions, type ToolDefinition } from './definitions.js';
import { clientAddress } from '../client-address.js';
import { envelopeJson } from '../envelope-json.js';
import { resultText } from './answer-json.js';
import { JsonAnswerTransport, plainToolCall } from './json-answer-transport.js';
import { answerDirect, directCall } from './direct-call.js';
import { clientSignal, type GoneFlag } from '../../router/client-gone.js';
import { createInputMemo } from '../input-memo.js';
import { toolInputKey } from './tool-input-key.js';

/** The procedures, called directly as the other faces do (createCaller builds a proxy per call). */
const PROCEDURES = proceduresOf(appRouter);

/** Validated arguments of recent calls, per tool, by their JSON text (facades/input-memo.ts). */
const PARSED_ARGUMENTS = new Map(TOOLS.map((t) => [t.name, createInputMemo()]));

/** An envelope's JSON: a memoized page's text spliced in (envelope-json.ts), else JSON.stringify's. */
function resultJson(result: object): string {
  return envelopeJson(result) ?? JSON.stringify(result);
}

/**
 * The text a model reads. Many clients hand the model only `content`, so it carries the whole
 * result as compact JSON (MCP 2025-11-25: structured results SHOULD also be serialised as text),
 * after one line a human or a model can act on.
 */
function describeResult(tool: ToolSpec, result: { data: unknown; meta: Record<string, unknown> }, accepted: boolean): string {
  if (accepted) {
    const job = result.data as { jobId: string; estimatedSeconds?: number };
    return `Accepted as job ${job.jobId}, status pending, about ${job.estimatedSeconds ?? '?'} s. Poll it with get_job (free).\n${resultJson(result)}`;
  }
  if (tool.name === 'get_job') {
    const job = result.data as { jobId: string; status: string; estimatedSeconds?: number; error?: { message?: string } };
    const state =
      job.status === 'completed' ? 'completed; data.result holds the result'
      : job.status === 'failed' ? `failed: ${job.error?.message ?? 'see data.error'}; nothing was charged`
      : `${job.status}, about ${job.estimatedSeconds ?? '?'} s left; poll again`;
    return `Job ${job.jobId} is ${state}.\n${resultJson(result)}`;
  }
  const count = Array.isArray(result.data) ? `${result.data.length} item(s)` : 'one result';
  const more = (result.meta.pagination as { nextCursor?: string | null } | null)?.nextCursor ? ' More pages: pass meta.pagination.nextCursor as cursor.' : '';
  // A memoized page's text is kept in parts, for the answer to splice (answer-json.ts).
  return resultText(`${tool.title}: ${count}, ${result.meta.creditsCharged} credit(s) charged.${more}`, result);
}

function toolError(deps: Deps, requestId: string, err: unknown): CallToolResult {
  // Tool errors carry the REST error body (same code, sub-code, param); no structuredContent,
  // which clients would check against the success schema.
  const body = errorBody(toServiceError(err), requestId, deps.config.publicUrl);
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], _meta: { ...body } };
}

/** Procedures that are another transport form of a tool's procedure. */
const PROCEDURE_OF_FORM: Record<string, string> = { searchByBody: 'search' };

/** A finished job as the tool result its call would have answered at once (tasks/result). */
function jobResult(deps: Deps, job: JobRecord): CallToolResult {
  // A job started over REST may come from a procedure no tool names (POST /v1/search is searchByBody).
  const tool = TOOLS.find((t) => t.procedure === job.procedure) ?? TOOLS.find((t) => t.procedure === PROCEDURE_OF_FORM[job.procedure])!;
  const ctx = createContext(deps, { transport: 'mcp', authorization: null, clientAddress: undefined });
  try {
    const answer = syncAnswerOf(ctx, job)!;
    return { content: [{ type: 'text', text: describeResult(tool, answer, false) }], structuredContent: answer };
  } catch (err) {
    return toolError(deps, ctx.requestId, err);
  }
}

/**
 * Runs one tool through the same tRPC procedure as REST, for an already authenticated principal.
 * `asTask` (a task-augmented call): the call runs as a job whatever its projection and answers
 * the task; anything that ends it at once (a bad input, a refusal, a dry run) is a protocol error.
 */
export async function callTool(deps: Deps, principal: Principal, clientAddress: string, name: string, args: unknown, signal?: GoneFlag, send?: SendProgress, asTask = false): Promise<CallToolResult | CreateTaskResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw protocolError(ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(name.slice(0, 64))}. Call tools/list for the tools this server has.`);
  // With a progressToken, a call that fans out here reports each leg as it settles (issue 16).
  const progress = send && !asTask ? createProgress(send) : null;
  const ctx = {
    ...createContext(deps, { transport: 'mcp', authorization: null, clientAddress, ...(signal ? { signal } : {}) }),
    principal,
    ...(progress ? { onLeg: progress.onLeg } : {}),
    ...(asTask ? { alwaysAsync: true } : {}),
  };
  let result: { data: unknown; meta: Record<string, unknown> };
  const input = args ?? {};
  const key = toolInputKey(input);
  try {
    result = (await PROCEDURES.get(tool.procedure)!.call(ctx, input, key === null ? undefined : { key, memo: PARSED_ARGUMENTS.get(tool.name)! })) as typeof result;
  } catch (err) {
    await progress?.flushed();
    if (!asTask) return toolError(deps, ctx.requestId, err);
    // No task was made: the JSON-RPC error carries the REST error body as its data.
    const failure = toServiceError(err);
    const body = errorBody(failure, ctx.requestId, deps.config.publicUrl);
    throw new McpError(failure.status >= 500 ? ErrorCode.InternalError : ErrorCode.InvalidParams, body.error.message, body);
  }
  let accepted = ctx.res.status === 202;
  if (asTask) {
    const job = accepted ? await deps.jobs.find((result.data as { jobId: string }).jobId, { accountId: principal.accountId, keyEnv: principal.env }, deps.clock.now()) : null;
    if (!job) throw new McpError(ErrorCode.InvalidParams, `${tool.name} answered at once (a dry run or a call without platform work): call it without a task.`);
    return { task: taskOf(job, deps.clock.now()) };
  }
  try {
    if (accepted && progress) {
      const waited = await waitInline(ctx, result, progress);
      [result, accepted] = [waited.answer, !waited.inline];
    }
  } catch (err) {
    await progress?.flushed();
    return toolError(deps, ctx.requestId, err);
  }
  await progress?.flushed();
  return { content: [{ type: 'text', text: describeResult(tool, result, accepted) }], structuredContent: result };
}

/** A tools/call with a progressToken is answered as SSE, so notifications can precede the result. */
function wantsProgress(body: unknown): boolean {
  const b = body as { method?: string; params?: { _meta?: { progressToken?: unknown } } } | null;
  return b?.method === 'tools/call' && b.params?._meta?.progressToken !== undefined;
}

export interface LegacyMcpOptions {
  /** Every request through the SDK's StreamableHTTPServerTransport (tests compare the two paths' bytes). */
  sdkTransportOnly?: boolean;
}

/** Who calls, as the shared server's handler finds it in the call's authInfo. */
interface Caller {
  principal: Principal;
  clientAddress: string;
}

type CallExtra = { signal: AbortSignal; sendNotification: (n: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; total?: number; message?: string } }) => Promise<void>; authInfo?: AuthInfo };

/** tools/call, the same for the per-request servers and the shared one; `callerOf` says who calls. */
function toolCallHandler(deps: Deps, callerOf: (extra: CallExtra) => Caller) {
  return async (request: { params: { name: string; arguments?: Record<string, unknown>; task?: unknown; _meta?: { progressToken?: string | number } } }, extra: CallExtra) => {
    const token = request.params._meta?.progressToken;
    // With a progressToken the answer is an SSE stream carrying notifications/progress (issue 16).
    const progress: SendProgress | undefined =
      token === undefined ? undefined : (value, total, message) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: value, total, message } });
    const asTask = request.params.task !== undefined && request.params.name !== 'get_job';
    const { principal, clientAddress } = callerOf(extra);
    return callTool(deps, principal, clientAddress, request.params.name, request.params.arguments, extra.signal, progress, asTask);
  };
}

/**
 * The legacy era of the MCP tool server (revisions up to 2025-11-25, opened by `initialize`) over
 * Streamable HTTP, stateless (stack-notes 2), so any process can serve any call. A lone
 * `tools/call` answered as JSON, what agents send most, goes to one long-lived server through
 * JsonAnswerTransport; every other request gets a new server and the SDK's transport. Tool
 * definitions are computed once. The modern era is modern.ts.
 */
export function createMcpHandler(deps: Deps, definitions: readonly ToolDefinition[] = toolDefinitions(deps), options: LegacyMcpOptions = {}) {
  // The shared definitions (definitions.ts); only this era offers Tasks (SDK 1.x experimental):
  // every data tool can run as a task (its job); get_job only reads one.
  const tools = definitions.map((t) => (t.name !== 'get_job' ? { ...t, execution: { taskSupport: 'optional' as const } } : t)) as Tool[];
  const serverInfo = serverInfoOf(deps.config.publicUrl);
  const capabilities = { tools: {}, tasks: { requests: { tools: { call: {} } } } };

  // One validator for every request's server: building one per request cost 12% of MCP CPU.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();

  // The shared server answers plain calls only: no task store (a task-augmented call is not
  // plain), and the caller travels with each call as its authInfo.
  const shared = new Server(serverInfo, { capabilities, instructions: INSTRUCTIONS, jsonSchemaValidator });
  shared.setRequestHandler(CallToolRequestSchema, toolCallHandler(deps, (extra) => extra.authInfo!.extra as unknown as Caller));
  const plainCalls = new JsonAnswerTransport();
  const connected = plainCalls.serve(shared);

  return async function handleMcp(req: IncomingMessage, res: ServerResponse, principal: Principal, body: unknown): Promise<void> {
    const call = options.sdkTransportOnly ? null : plainToolCall(req, body);
    if (call) {
      const address = clientAddress(deps.config, req);
      const direct = directCall(call);
      if (direct) {
        const gone = clientSignal(res);
        return answerDirect(res, direct, gone, () => callTool(deps, principal, address, direct.name, direct.args, gone));
      }
      await connected;
      const caller: Caller = { principal, clientAddress: address };
      // Our handlers read no request info; the headers are there for any that would.
      return plainCalls.handle(res, call, { authInfo: { token: '', clientId: principal.keyId, scopes: [], extra: caller as unknown as Record<string, unknown> }, requestInfo: { headers: req.headers } });
    }
    const server = new Server(serverInfo, { capabilities, instructions: INSTRUCTIONS, jsonSchemaValidator, taskStore: jobTaskStore(deps, principal, (job) => jobResult(deps, job)) });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    // Replaces the SDK's tasks/result, which re-reads the task at its poll interval.
    server.setRequestHandler(GetTaskPayloadRequestSchema, taskResultHandler(deps, principal, (job) => jobResult(deps, job)));
    const caller: Caller = { principal, clientAddress: clientAddress(deps.config, req) };
    server.setRequestHandler(CallToolRequestSchema, toolCallHandler(deps, () => caller));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !wantsProgress(body) });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    answerMalformedToolCalls(transport);
    await transport.handleRequest(req, res, body);
  };
}
