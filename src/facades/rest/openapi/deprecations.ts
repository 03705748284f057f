import type { Deprecation } from '../../../domain/lifecycle/deprecations.js';
import { DEPRECATION_HEADERS, errorResponse } from './responses.js';
import type { Json } from './json.js';

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * Marks the deprecation table's items in the document (spec 9): an operation or a parameter
 * `deprecated: true`, a value named in its parameter's description (OpenAPI has no per-value
 * flag), each with its dates and replacement; such operations list the Deprecation, Sunset and
 * Link headers and their 410 `gone`.
 */
export function markDeprecations(doc: Json, table: readonly Deprecation[], publicUrl: string): void {
  if (table.length === 0) return;
  Object.assign(doc.components.headers, DEPRECATION_HEADERS);
  for (const ops of Object.values(doc.paths as Json) as Json[]) {
    for (const op of Object.values(ops) as Json[]) {
      const entries = table.filter((d) => d.target.operation === op.operationId);
      if (entries.length === 0) continue;
      for (const d of entries) markOne(op, d);
      for (const status of Object.keys(op.responses ?? {})) {
        if (/^2/.test(status)) Object.assign((op.responses[status].headers ??= {}), { Deprecation: ref('Deprecation'), Sunset: ref('Sunset'), Link: ref('Link') });
      }
      op.responses['410'] = errorResponse(410, publicUrl);
    }
  }
}

function markOne(op: Json, d: Deprecation): void {
  const when = `Deprecated since ${d.deprecatedOn}; answers 410 gone from ${d.sunsetOn}. ${d.replacement}`;
  const t = d.target;
  if (t.kind === 'operation') {
    op.deprecated = true;
    op.description = `${when}\n\n${op.description ?? ''}`;
    return;
  }
  const parameter = (op.parameters as Json[] | undefined)?.find((p) => p.name === t.parameter);
  if (t.kind === 'parameter') {
    if (parameter) Object.assign(parameter, { deprecated: true, description: `${when} ${parameter.description ?? ''}`.trim() });
    const property = op.requestBody?.content?.['application/json']?.schema?.properties?.[t.parameter];
    if (property) Object.assign(property, { deprecated: true, description: `${when} ${property.description ?? ''}`.trim() });
    return;
  }
  const note = `The value \`${t.value}\` is deprecated: ${when}`;
  if (parameter) parameter.description = `${parameter.description ?? ''} ${note}`.trim();
}
