import type { ParsedInputSlot } from '../router/trpc-internals.js';

/** Entries kept per memo, and the longest key kept: a query string past it is parsed every time. */
const MAX_ENTRIES = 1_000;
const MAX_KEY_CHARS = 2_048;

/**
 * The validated input of recent calls of one operation, keyed by what fully determines its raw
 * input (issue 29): a client repeating a search (a dashboard, an agent polling) no longer pays
 * zod's parse each time, and the frozen value carries the search's derived params along. REST
 * keys a GET by its path and raw query string (a GET route's raw input is built from them alone,
 * openapi-core.ts); MCP keys a tools/call by the JSON text of its arguments, per tool
 * (mcp/tool-input-key.ts). Sound because the schemas read nothing else (no clock, no caller): the
 * same key gives the same raw input and so the same parse, whichever key or account sends it.
 * Refusals are not kept. The least recently used entry goes first.
 */
export function createInputMemo(maxEntries = MAX_ENTRIES): ParsedInputSlot['memo'] {
  const entries = new Map<string, unknown>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      // Re-inserted to mark it recently used (Map keeps insertion order).
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      if (key.length > MAX_KEY_CHARS) return;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, value);
    },
  };
}
