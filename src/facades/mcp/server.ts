import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../../deps.js';
import { errorBody } from '../../domain/errors.js';
import type { Principal } from '../../domain/service-ports.js';
import { appRouter } from '../../router/app-router.js';
import { createContext } from '../../router/context.js';
import { toServiceError } from '../../router/errors.js';
import { protocolError } from './guards.js';
import { SERVICE_VERSION } from '../../version.js';
import { platformsNote } from '../../domain/capabilities.js';
import { waitInline, type SendProgress } from './progress.js';
import { TOOLS, inputJsonSchema, outputJsonSchema, type ToolSpec } from './tools.js';
import { clientAddress } from '../client-address.js';
import { envelopeJson } from '../envelope-json.js';

type Caller = Record<string, (input: unknown) => Promise<{ data: unknown; meta: Record<string, unknown> }>>;

/**
 * The text a model reads. Many clients hand the model only `content`, so it carries the whole
 * result as compact JSON (MCP 2025-11-25: structured results SHOULD also be serialised as text),
 * after one line a human or a model can act on.
 */
function describeResult(tool: ToolSpec, result: { data: unknown; meta: Record<string, unknown> }, accepted: boolean): string {
  const json = envelopeJson(result) ?? JSON.stringify(result);
  if (accepted) {
    const job = result.data as { jobId: string; estimatedSeconds?: number };
    return `Accepted as job ${job.jobId}, status pending, about ${job.estimatedSeconds ?? '?'} s. Poll it with get_job (free).\n${json}`;
  }
  if (tool.name === 'get_job') {
    const job = result.data as { jobId: string; status: string; estimatedSeconds?: number; error?: { message?: string } };
    const state =
      job.status === 'completed' ? 'completed; data.result holds the result'
      : job.status === 'failed' ? `failed: ${job.error?.message ?? 'see data.error'}; nothing was charged`
      : `${job.status}, about ${job.estimatedSeconds ?? '?'} s left; poll again`;
    return `Job ${job.jobId} is ${state}.\n${json}`;
  }
  const count = Array.isArray(result.data) ? `${result.data.length} item(s)` : 'one result';
  const more = (result.meta.pagination as { nextCursor?: string | null } | null)?.nextCursor ? ' More pages: pass meta.pagination.nextCursor as cursor.' : '';
  return `${tool.title}: ${count}, ${result.meta.creditsCharged} credit(s) charged.${more}\n${json}`;
}

/** Runs one tool through the same tRPC procedure as REST, for an already authenticated principal. */
export async function callTool(deps: Deps, principal: Principal, clientAddress: string, name: string, args: unknown, signal?: AbortSignal, progress?: SendProgress): Promise<CallToolResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw protocolError(ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(name.slice(0, 64))}. Call tools/list for the tools this server has.`);
  const ctx = { ...createContext(deps, { transport: 'mcp', authorization: null, clientAddress, ...(signal ? { signal } : {}) }), principal };
  try {
    const caller = appRouter.createCaller(ctx) as unknown as Caller;
    let result = await caller[tool.procedure]!(args ?? {});
    let accepted = ctx.res.status === 202;
    if (accepted && progress) {
      const waited = await waitInline(ctx, result, progress);
      [result, accepted] = [waited.answer, !waited.inline];
    }
    return { content: [{ type: 'text', text: describeResult(tool, result, accepted) }], structuredContent: result };
  } catch (err) {
    // Tool errors carry the REST error body (same code, sub-code, param); no structuredContent,
    // which clients would check against the success schema.
    const body = errorBody(toServiceError(err), ctx.requestId, deps.config.publicUrl);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], _meta: { ...body } };
  }
}

/** A tools/call with a progressToken is answered as SSE, so notifications can precede the result. */
function wantsProgress(body: unknown): boolean {
  const b = body as { method?: string; params?: { _meta?: { progressToken?: unknown } } } | null;
  return b?.method === 'tools/call' && b.params?._meta?.progressToken !== undefined;
}

/**
 * The MCP tool server over Streamable HTTP, stateless (stack-notes 2): a new server and transport
 * per request, so any process can serve any call. Tool definitions are computed once.
 */
export function createMcpHandler(deps: Deps) {
  const tools: Tool[] = TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: `${t.description}${platformsNote(t.procedure, deps.platforms)}`,
    inputSchema: inputJsonSchema(t.input) as Tool['inputSchema'],
    outputSchema: outputJsonSchema(t.output) as Tool['outputSchema'],
    // Data tools reach out to the platforms; get_job only reads our own job table.
    annotations: { title: t.title, readOnlyHint: true, idempotentHint: true, openWorldHint: t.name !== 'get_job', destructiveHint: false },
  }));

  // One validator for every request's server: building one per request cost 12% of MCP CPU.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();

  return async function handleMcp(req: IncomingMessage, res: ServerResponse, principal: Principal, body: unknown): Promise<void> {
    const server = new Server({ name: 'accommodation-data-service', version: SERVICE_VERSION }, { capabilities: { tools: {} }, jsonSchemaValidator });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const token = request.params._meta?.progressToken;
      // With a progressToken the answer is an SSE stream carrying notifications/progress (issue 16).
      const progress: SendProgress | undefined =
        token === undefined ? undefined : (value, total, message) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: value, total, message } });
      return callTool(deps, principal, clientAddress(deps.config, req), request.params.name, request.params.arguments, extra.signal, progress);
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !wantsProgress(body) });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
}
