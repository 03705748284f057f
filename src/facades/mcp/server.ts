import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../../deps.js';
import { errorBody } from '../../domain/errors.js';
import type { Principal } from '../../domain/service-ports.js';
import { appRouter } from '../../router/app-router.js';
import { createContext } from '../../router/context.js';
import { toServiceError } from '../../router/errors.js';
import { TOOLS, inputJsonSchema, outputJsonSchema, type ToolSpec } from './tools.js';
import { clientAddress } from '../client-address.js';

type Caller = Record<string, (input: unknown) => Promise<{ data: unknown; meta: Record<string, unknown> }>>;

function describeResult(tool: ToolSpec, result: { data: unknown; meta: Record<string, unknown> }, accepted: boolean): string {
  const credits = result.meta.creditsCharged;
  if (accepted) {
    const job = result.data as { jobId: string; estimatedSeconds?: number };
    return `Accepted as job ${job.jobId} (about ${job.estimatedSeconds ?? '?'} s). Poll it with get_job; polling is free.`;
  }
  const count = Array.isArray(result.data) ? `${result.data.length} item(s)` : 'one result';
  const more = (result.meta.pagination as { nextCursor?: string | null } | null)?.nextCursor ? ' More pages: pass meta.pagination.nextCursor as cursor.' : '';
  return `${tool.title}: ${count}, ${credits} credit(s) charged.${more} Full data in structuredContent.`;
}

/** Runs one tool through the same tRPC procedure as REST, for an already authenticated principal. */
export async function callTool(deps: Deps, principal: Principal, clientAddress: string, name: string, args: unknown): Promise<CallToolResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${name}`);
  const ctx = { ...createContext(deps, { transport: 'mcp', authorization: null, clientAddress }), principal };
  try {
    const caller = appRouter.createCaller(ctx) as unknown as Caller;
    const result = await caller[tool.procedure]!(args ?? {});
    const accepted = ctx.res.status === 202;
    return { content: [{ type: 'text', text: describeResult(tool, result, accepted) }], structuredContent: result };
  } catch (err) {
    // Tool errors carry the REST error body (same code, sub-code, param); no structuredContent,
    // which clients would check against the success schema.
    const body = errorBody(toServiceError(err), ctx.requestId, deps.config.publicUrl);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], _meta: { ...body } };
  }
}

/**
 * The MCP tool server over Streamable HTTP, stateless (stack-notes 2): a new server and transport
 * per request, so any process can serve any call. Tool definitions are computed once.
 */
export function createMcpHandler(deps: Deps) {
  const tools: Tool[] = TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: inputJsonSchema(t.input) as Tool['inputSchema'],
    outputSchema: outputJsonSchema(t.output) as Tool['outputSchema'],
    annotations: { title: t.title, readOnlyHint: true, idempotentHint: true, openWorldHint: true, destructiveHint: false },
  }));

  // One validator for every request's server: building one per request cost 12% of MCP CPU.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();

  return async function handleMcp(req: IncomingMessage, res: ServerResponse, principal: Principal, body: unknown): Promise<void> {
    const server = new Server({ name: 'accommodation-data-service', version: '1.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request) =>
      callTool(deps, principal, clientAddress(deps.config, req), request.params.name, request.params.arguments),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
}
