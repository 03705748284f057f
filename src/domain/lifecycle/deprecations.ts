/**
 * What is deprecated in `/v1`, as data (spec 9: 6 months of notice, a Sunset header and a
 * changelog entry). Every face reads this one table: the request pipeline adds the Deprecation,
 * Sunset and Link headers and a `deprecated_usage` warning to a call that uses an entry, answers
 * `410 gone` once its sunset has passed, and the OpenAPI document marks it `deprecated: true`.
 * README "Deprecating something" says how to add an entry.
 */

/** What a deprecation is about: a whole operation, one parameter of it, or one value of a parameter. */
export type DeprecatedTarget =
  | { kind: 'operation'; operation: string }
  | { kind: 'parameter'; operation: string; parameter: string }
  | { kind: 'value'; operation: string; parameter: string; value: string };

export interface Deprecation {
  /** The tRPC procedure name, also the OpenAPI operationId (`search`, `searchByBody`, `listing`…); MCP tools call the same. */
  target: DeprecatedTarget;
  /** The day the deprecation was announced (YYYY-MM-DD, UTC): `Deprecation: @<its unix time>`. */
  deprecatedOn: string;
  /** The first day the item answers 410 (YYYY-MM-DD, UTC), at least 6 months after `deprecatedOn`. */
  sunsetOn: string;
  /** What to use instead, in a sentence a user can act on. */
  replacement: string;
  /** The CHANGELOG.md anchor of the entry that announced it (the `Link` header points there). */
  changelogAnchor: string;
}

/** Nothing we ship is deprecated yet. */
export const DEPRECATIONS: readonly Deprecation[] = [];

/** Spec 9: a deprecation gives at least six months of notice. */
export const MINIMUM_NOTICE_MONTHS = 6;

export const dayStartMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** Whether `sunsetOn` is at least MINIMUM_NOTICE_MONTHS calendar months after `deprecatedOn`. */
export function givesEnoughNotice(d: Deprecation): boolean {
  const earliest = new Date(dayStartMs(d.deprecatedOn));
  earliest.setUTCMonth(earliest.getUTCMonth() + MINIMUM_NOTICE_MONTHS);
  return dayStartMs(d.sunsetOn) >= earliest.getTime();
}

/** The name a user knows the item by, for warnings and 410 messages. */
export function describeTarget(t: DeprecatedTarget): string {
  if (t.kind === 'operation') return `operation ${t.operation}`;
  if (t.kind === 'parameter') return `parameter "${t.parameter}" of ${t.operation}`;
  return `value "${t.value}" of parameter "${t.parameter}" of ${t.operation}`;
}

/** The values a raw input sent for one parameter: a list, a comma-separated text, or one value. */
function sentValues(raw: unknown): string[] {
  if (Array.isArray(raw)) return raw.flatMap(sentValues);
  if (typeof raw === 'string') return raw.split(',').map((v) => v.trim());
  if (typeof raw === 'number' || typeof raw === 'boolean') return [String(raw)];
  return [];
}

/**
 * The entries a call of `operation` with this raw input uses (the input as sent, before
 * validation, so a deprecated value is seen even where a schema would rewrite it).
 */
export function usedDeprecations(table: readonly Deprecation[], operation: string, rawInput: unknown): Deprecation[] {
  if (table.length === 0) return [];
  const input = rawInput && typeof rawInput === 'object' ? (rawInput as Record<string, unknown>) : {};
  return table.filter(({ target }) => {
    if (target.operation !== operation) return false;
    if (target.kind === 'operation') return true;
    const raw = input[target.parameter];
    if (raw === undefined || raw === null) return false;
    return target.kind === 'parameter' || sentValues(raw).includes(target.value);
  });
}
