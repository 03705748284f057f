import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server, createMcpHandler, type CallToolResult, type JSONRPCRequest, type McpRequestContext, type Result, type ServerContext } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { Deps } from '../../deps.js';
import type { Principal } from '../../domain/ports/accounts.js';
import { INSTRUCTIONS, serverInfoOf, type ToolDefinition } from './definitions.js';
import type { SendProgress } from './progress.js';
import { callTool } from './server.js';
import { malformedToolCall, protocolError } from './guards.js';

/** Who is calling, decided by http.ts before any MCP code runs (the SDK verifies no token). */
interface Caller {
  principal: Principal;
  clientAddress: string;
}

/**
 * The SDK 2.x server, with a malformed tools/call refused as the legacy era refuses it (-32602
 * naming the field, guards.ts) instead of with the SDK's zod dump. The check runs where the SDK
 * validates the call, so the era's own checks (headers, version) still come first.
 */
class ToolServer extends Server {
  protected override _wrapHandler(method: string, handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>) {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return wrapped;
    return (request: JSONRPCRequest, ctx: ServerContext): Promise<Result> => {
      const bad = malformedToolCall(request);
      return bad ? Promise.reject(protocolError(bad.code, bad.message)) : wrapped(request, ctx);
    };
  }
}

/**
 * How long a client may reuse our tools/list and server/discover answers (MCP 2026-07-28 cache
 * hints). The list changes only with a release; it is the same for every caller but for the
 * platform notes (sandbox and live lists are both in every description), so `public` is true.
 */
const LIST_TTL_MS = 5 * 60 * 1000;

/**
 * The modern era of `/mcp` (revision 2026-07-28), served by the official SDK's 2.x handler:
 * stateless, no `initialize`, every request carrying its version in `_meta` and mirrored in the
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers. The SDK owns the protocol: header
 * validation (-32020), `server/discover`, unsupported versions (400, -32022 with
 * `data.supported`), unknown methods (404, -32601), notification POSTs (202), one JSON answer
 * or, once a progress notification is sent, an SSE stream scoped to the request. Legacy traffic
 * never reaches it (`legacy: 'reject'`): http.ts routes that to the 1.x server, which still
 * offers Tasks. Both eras list the same tool objects and run the same `callTool`.
 */
export function createModernMcp(deps: Deps, tools: readonly ToolDefinition[]) {
  const serverInfo = serverInfoOf(deps.config.publicUrl);
  const outputSchemaOf = new Map(tools.map((t) => [t.name, t.outputSchema]));
  // One validator for every request's server, as in the legacy era (the SDK would build one each).
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const listed = tools.map((t) => ({ ...t }));

  function serverFor(context: McpRequestContext): Server {
    const caller = context.authInfo?.extra as unknown as Caller;
    const server = new ToolServer(serverInfo, {
      capabilities: { tools: {} },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator,
      cacheHints: { 'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'public' }, 'server/discover': { ttlMs: LIST_TTL_MS, cacheScope: 'public' } },
    });
    // A fresh result object per call: the SDK adds the era's fields (cache hints, resultType) to it.
    server.setRequestHandler('tools/list', async () => ({ tools: listed }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const token = request.params._meta?.progressToken;
      // With a progressToken the SDK turns the answer into an SSE stream as the first notification goes out.
      const progress: SendProgress | undefined =
        token === undefined ? undefined : (value, total, message) => ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: value, total, message } });
      const result = (await callTool(deps, caller.principal, caller.clientAddress, request.params.name, request.params.arguments, ctx.mcpReq.signal, progress)) as CallToolResult;
      return server.projectCallToolResult(result, outputSchemaOf.get(request.params.name));
    });
    return server;
  }

  const handler = createMcpHandler(serverFor, {
    legacy: 'reject',
    onerror: (err) => deps.log.debug({ err: err.message }, 'modern MCP request refused'),
  });
  const serve = toNodeHandler(handler);

  return {
    handle(req: IncomingMessage, res: ServerResponse, caller: Caller, body: unknown): Promise<void> {
      // The adapter passes `req.auth` through to the factory as authInfo; nothing reads it from headers.
      (req as IncomingMessage & { auth?: unknown }).auth = { token: '', clientId: caller.principal.keyId, scopes: [], extra: caller };
      return serve(req, res, body);
    },
    close: () => handler.close(),
  };
}
