import { ERROR_CODES, ERROR_STATUS } from '../../domain/errors.js';
import type { OpenApiDocument } from './openapi.js';
import { retriesDocsHtml } from './docs-retries.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function typeOf(schema: Json | undefined): string {
  if (!schema) return '';
  if (schema.enum) return schema.enum.join(' | ');
  if (schema.type === 'array') return `${typeOf(schema.items)}[]`;
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ');
  return [schema.type, schema.format].filter(Boolean).join(' ') || 'any';
}

function operationHtml(path: string, method: string, op: Json): string {
  const params = (op.parameters ?? []) as Json[];
  const body = op.requestBody?.content?.['application/json']?.schema as Json | undefined;
  const rows = [
    ...params.map((p) => ({ name: p.name, where: p.in, required: p.required, schema: p.schema, description: p.description ?? p.schema?.description })),
    ...Object.entries((body?.properties ?? {}) as Json).map(([name, schema]) => ({ name, where: 'body', required: body?.required?.includes(name), schema, description: schema.description })),
  ];
  const table = rows.length
    ? `<table><tr><th>Parameter</th><th>In</th><th>Type</th><th>Required</th><th>Notes</th></tr>${rows
        .map((r) => `<tr><td><code>${esc(r.name)}</code></td><td>${esc(r.where)}</td><td>${esc(typeOf(r.schema))}</td><td>${r.required ? 'yes' : ''}</td><td>${esc(r.description)}${r.schema?.default !== undefined ? ` Default <code>${esc(JSON.stringify(r.schema.default))}</code>.` : ''}</td></tr>`)
        .join('')}</table>`
    : '<p>No parameters.</p>';
  return `<section id="${esc(op.operationId)}"><h3><span class="m">${method.toUpperCase()}</span> /v1${esc(path)}</h3><p><strong>${esc(op.summary)}</strong>. ${esc(op.description)}</p>${table}</section>`;
}

/** A readable reference page rendered from the OpenAPI document; it loads nothing from elsewhere. */
export function renderDocsPage(doc: OpenApiDocument): string {
  const ops = Object.entries(doc.paths as Json).flatMap(([path, methods]) => Object.entries(methods as Json).map(([m, op]) => operationHtml(path, m, op as Json)));
  const errors = ERROR_CODES.map((c) => `<tr id="error-${c}"><td><code>${c}</code></td><td>${ERROR_STATUS[c]}</td></tr>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Accommodation Data Service API</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222}code{background:#f3f3f3;padding:0 3px}
table{border-collapse:collapse;width:100%;margin:.5em 0 1.5em}td,th{border:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top}
.m{background:#225;color:#fff;padding:1px 6px;border-radius:3px;font-size:13px}section{border-top:1px solid #eee;padding-top:.5em}</style></head><body>
<h1>Accommodation Data Service API</h1>
<p>${esc((doc.info as Json).description)}</p>
<p>Authenticate with <code>Authorization: Bearer &lt;key&gt;</code>. Machine-readable document: <a href="/v1/openapi.json">/v1/openapi.json</a>.
Successful data responses are <code>{ data, meta }</code>; errors are <code>{ error: { code, subCode?, message, param?, requestId, retryable, docUrl } }</code>.</p>
<h2 id="sandbox">Sandbox triggers</h2>
<table><tr><th>Value</th><th>Where</th><th>Effect</th></tr>
<tr><td><code>sandbox:async</code></td><td>search <code>location</code>, price-compare <code>name</code></td><td>202 with a job that completes in about 2 s; poll <code>/v1/jobs/{jobId}</code></td></tr>
<tr><td><code>sandbox:partial</code></td><td>search <code>location</code>, price-compare <code>name</code></td><td>one leg fails (the last platform asked for); <code>meta.partial</code> is true and that leg costs 0</td></tr>
<tr><td><code>sandbox:unavailable</code></td><td>search <code>location</code>, price-compare <code>name</code> or <code>googleHotelId</code>, or any listing id</td><td>503 <code>upstream_unavailable</code>, 0 credits</td></tr>
<tr><td><code>sandbox:format-changed</code></td><td>search <code>location</code>, price-compare <code>name</code> or <code>googleHotelId</code>, or any listing id</td><td>the platform answers in a format the service cannot read: that leg is <code>failed</code> with <code>error: upstream_format_changed</code>; when it is the only leg, 502 <code>upstream_format_error</code> (not retryable), 0 credits</td></tr>
<tr><td><code>sandbox-missing</code></td><td>any listing id, <code>googleHotelId</code> or <code>name</code></td><td>404 <code>listing_not_found</code></td></tr>
<tr><td>an unknown place</td><td>search <code>location</code></td><td>200 with no items and a <code>no_results</code> warning</td></tr></table>
${retriesDocsHtml()}
<h2>Endpoints</h2>${ops.join('\n')}
<h2 id="errors">Error codes</h2><table><tr><th>Code</th><th>HTTP status</th></tr>${errors}</table>
</body></html>`;
}
