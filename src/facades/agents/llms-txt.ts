import { ERROR_DOCS, SUB_CODES } from '../../domain/error-catalogue.js';
import { ERROR_CODES, ERROR_STATUS, isRetryable } from '../../domain/errors.js';
import { SERVICE_VERSION } from '../../version.js';
import type { ToolDefinition } from '../mcp/definitions.js';

/**
 * `/llms.txt` and `/llms-full.txt` (the llms.txt convention: a Markdown page an agent reads
 * first), generated at start-up from what the service already publishes, so they cannot drift:
 * the REST operations from the OpenAPI document (itself read from the router), the tools from
 * the MCP tool definitions, the errors from the error table. The short page has one line per
 * operation and tool; the full one adds every parameter and every error code and sub-code.
 */

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: { type?: string | string[]; enum?: unknown[]; default?: unknown };
}
interface Operation {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}
/** The part of the OpenAPI document read here (its own types are wider than we need). */
export interface OpenApiLike {
  paths?: object;
}

const HEAD = (publicUrl: string) => `# Accommodation Data Service

> One API for search, availability, listing detail, price quotes, cross-OTA price comparison and reviews across Airbnb, Booking.com, Vrbo and Google Hotels, as REST under ${publicUrl}/v1 and as MCP tools at ${publicUrl}/mcp. Version ${SERVICE_VERSION}.

Every answer is \`{ data, meta }\`; \`meta.creditsCharged\` says what the call cost (failed, empty and blocked calls cost 0; sandbox keys are free). A slow call may answer 202 with a job to poll (free). A value the service cannot read from a platform is null with a warning, never a guess.

## Authentication

- REST: \`Authorization: Bearer svc_test_…\` (sandbox: free, deterministic data) or \`svc_live_…\` (live, billed in credits).
- MCP: OAuth 2.1 (authorization code with PKCE; discovery from the 401's \`resource_metadata\`, ${publicUrl}/.well-known/oauth-protected-resource/mcp; scope \`stays:read\`), or an API key sent as the bearer token.

## Links

- [OpenAPI document](${publicUrl}/v1/openapi.json): every REST operation, parameter and answer
- [API reference](${publicUrl}/docs): the same, readable
- [Error catalogue](${publicUrl}/docs/errors): every error code and sub-code, when it happens and what to do
- [MCP endpoint](${publicUrl}/mcp): Streamable HTTP, protocol 2026-07-28 (stateless) and 2025-11-25 (initialize)
- [MCP server card](${publicUrl}/.well-known/mcp.json)
- [Full version of this page](${publicUrl}/llms-full.txt): every parameter and error code
`;

const oneLine = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
// A sentence ends at . ! or ? before a space and a capital ("Booking.com" and "data.result" do not end one).
const sentences = (text: string | undefined) => oneLine(text).split(/(?<=[.!?])\s+(?=[A-Za-z])/).filter((x) => x.length > 0);
/** The first sentence and what the call costs: a line an agent can scan; the full page has the rest. */
function gist(text: string | undefined): string {
  const [first = '', ...rest] = sentences(text);
  const cost = rest.find((x) => /credit|free\b/i.test(x));
  return cost ? `${first} ${cost}` : first;
}

function operations(doc: OpenApiLike): { method: string; path: string; op: Operation }[] {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  return Object.entries(paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path: `/v1${path}`, op })));
}

function typeOf(schema: Parameter['schema']): string {
  if (!schema) return 'string';
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  return Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'value');
}

function parameterLines(params: readonly Parameter[]): string {
  return params
    .map((p) => {
      const given = p.schema?.default !== undefined ? `, default ${JSON.stringify(p.schema.default)}` : '';
      const said = oneLine(p.description);
      return `  - \`${p.name}\` (${p.in}, ${typeOf(p.schema)}${p.required ? ', required' : ''}${given})${said ? `: ${said}` : ''}`;
    })
    .join('\n');
}

function toolParameters(tool: ToolDefinition): Parameter[] {
  type Prop = { description?: string; type?: string; anyOf?: { type?: string }[]; enum?: unknown[]; default?: unknown; $ref?: string; format?: string };
  const defs = (tool.inputSchema.$defs ?? {}) as Record<string, Prop>;
  const props = (tool.inputSchema.properties ?? {}) as Record<string, Prop>;
  const required = new Set((tool.inputSchema.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, own]) => {
    // A shared schema (the platform enum) is a $ref into $defs: show what it refers to.
    const s = own.$ref ? { ...defs[own.$ref.replace('#/$defs/', '')], ...own } : own;
    return {
    name,
    in: 'argument',
    required: required.has(name),
    description: s.description ?? '',
    schema: { type: s.format ?? s.type ?? s.anyOf?.map((o) => o.type ?? 'value').join(' | '), ...(s.enum ? { enum: s.enum } : {}), ...(s.default !== undefined ? { default: s.default } : {}) },
    };
  });
}

function errorSection(): string {
  const lines = ERROR_CODES.map((code) => {
    const doc = ERROR_DOCS[code];
    const subs = Object.entries(SUB_CODES)
      .filter(([, s]) => s.code === code)
      .map(([sub, s]) => `\n  - \`${code}.${sub}\`: ${oneLine(s.when)}`)
      .join('');
    return `- \`${code}\` (HTTP ${ERROR_STATUS[code]}${isRetryable(code) ? ', retryable' : ''}): ${oneLine(doc?.when)} ${oneLine(doc?.action)}${subs}`;
  });
  return `## Errors\n\nEvery error is \`{ error: { code, subCode?, message, param?, retryable, docUrl }, meta: { requestId } }\` on REST, and the same body in an MCP tool error.\n\n${lines.join('\n')}\n`;
}

export function renderLlmsTxt(publicUrl: string, doc: OpenApiLike, tools: readonly ToolDefinition[], full: boolean, guides: readonly { path: string; title: string }[] = []): string {
  const ops = operations(doc).map(({ method, path, op }) => {
    const line = `- \`${method} ${path}\`: ${oneLine(op.summary)}. ${full ? oneLine(op.description) : gist(op.description)}`;
    if (!full) return line;
    const body = op.requestBody ? '\n  - JSON body: the same fields as the GET form\'s query parameters, as typed JSON' : '';
    return `${line}\n${parameterLines(op.parameters ?? [])}${body}`;
  });
  const toolLines = tools.map((t) => {
    const line = `- \`${t.name}\` (${t.title}): ${full ? oneLine(t.description) : gist(t.description)}`;
    return full ? `${line}\n${parameterLines(toolParameters(t))}` : line;
  });
  return [
    HEAD(publicUrl),
    `## MCP tools\n\nThe ${tools.length} tools at ${publicUrl}/mcp, each the same operation as its REST endpoint:\n\n${toolLines.join('\n')}\n`,
    `## REST operations\n\nUnder ${publicUrl}/v1, with a bearer key:\n\n${ops.join('\n')}\n`,
    ...(guides.length ? [`## Guides\n\nEach operation with every parameter and runnable examples, and how to build on the service:\n\n${guides.map((g) => `- [${g.title}](${publicUrl}${g.path})`).join('\n')}\n`] : []),
    ...(full ? [errorSection()] : []),
  ].join('\n');
}
