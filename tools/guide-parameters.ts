/**
 * The parameter table of an operation's guide (docs/guides/<operation>.md), written from the
 * OpenAPI document so a guide lists every parameter the service takes, with its own words.
 * `test/contract/guides.test.ts` keeps the tables in the guides equal to what this writes;
 * `UPDATE_GUIDES=1 npx vitest run test/contract/guides.test.ts` rewrites them.
 */

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  items?: Schema;
  $ref?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  format?: string;
  default?: unknown;
  description?: string;
  anyOf?: Schema[];
}

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, { parameters?: OpenApiParameter[] } | unknown>>;
  components?: { schemas?: Record<string, Schema> };
}

export const TABLE_START = '<!-- parameters: generated from the OpenAPI document; do not edit -->';
export const TABLE_END = '<!-- end of parameters -->';

/** The operation's parameters, in the document's order. */
export function operationParameters(doc: OpenApiDoc, method: string, path: string): OpenApiParameter[] {
  const op = doc.paths[path]?.[method] as { parameters?: OpenApiParameter[] } | undefined;
  if (!op) throw new Error(`the OpenAPI document has no ${method.toUpperCase()} ${path}`);
  return op.parameters ?? [];
}

function resolve(doc: OpenApiDoc, s: Schema): Schema {
  const name = s.$ref?.replace('#/components/schemas/', '');
  return name ? (doc.components?.schemas?.[name] ?? s) : s;
}

/** A short type: `integer 1-30`, `one of a, b`, `list of …`, `date`. */
function typeOf(doc: OpenApiDoc, raw: Schema): string {
  const s = resolve(doc, raw);
  if (s.enum) return s.enum.length > 8 ? `one of ${s.enum.length} codes` : `one of ${s.enum.map((v) => `\`${String(v)}\``).join(', ')}`;
  if (s.type === 'array' && s.items) return `list of ${typeOf(doc, s.items)}`;
  if (s.anyOf) return s.anyOf.map((x) => typeOf(doc, x)).join(' or ');
  const base = s.format === 'date' ? 'date' : s.format === 'uri' ? 'URL' : String(s.type ?? 'value');
  if (s.minimum !== undefined && s.maximum !== undefined) return `${base} ${s.minimum}-${s.maximum}`;
  if (s.minimum !== undefined) return `${base} ≥ ${s.minimum}`;
  return base;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The Markdown table, between its markers. */
export function parameterTable(doc: OpenApiDoc, method: string, path: string): string {
  const rows = operationParameters(doc, method, path).map((p) => {
    const schema = p.schema ?? {};
    const description = p.description ?? schema.description ?? '';
    const where = p.in === 'query' ? '' : ` (${p.in})`;
    const def = schema.default === undefined ? (p.required ? 'required' : '') : `\`${String(schema.default)}\``;
    return `| \`${p.name}\`${where} | ${cell(typeOf(doc, schema))} | ${def} | ${cell(description)} |`;
  });
  return [TABLE_START, '', '| Parameter | Type | Default | What it does |', '|---|---|---|---|', ...rows, '', TABLE_END].join('\n');
}

/** `text` with its table (between the markers) replaced by `table`; throws when it has none. */
export function withTable(text: string, table: string): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error('the guide has no parameter table markers');
  return text.slice(0, start) + table + text.slice(end + TABLE_END.length);
}
