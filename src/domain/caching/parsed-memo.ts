import { deepFreeze } from './page-memo.js';

/**
 * Cached leg answers come back as strings (Redis, or the in-process twin); turning each one back
 * into objects was the largest single cost of a cached call (about 86 kB parsed per search, and
 * the garbage it left). The memo keeps the parsed value of recent entries next to the exact string
 * it came from: a hit whose string is unchanged reuses the value, so a shared cache stays the one
 * source of truth (another process may have rewritten the entry; then the string differs and is
 * parsed again). Values are deep-frozen because every request now shares them: an operation that
 * mutated one would throw at once instead of leaking into the next caller's answer.
 */
export interface ParsedMemo {
  parse<T>(key: string, raw: string): T;
}


/** Bounded by entries and by characters held; the least recently used entry goes first. */
export function createParsedMemo(maxEntries = 2_000, maxChars = 32 * 1024 * 1024): ParsedMemo {
  const entries = new Map<string, { raw: string; value: unknown }>();
  let chars = 0;
  const remove = (key: string) => {
    const old = entries.get(key);
    if (!old) return;
    chars -= old.raw.length;
    entries.delete(key);
  };
  return {
    parse<T>(key: string, raw: string): T {
      const hit = entries.get(key);
      if (hit && hit.raw === raw) {
        // Re-inserted to mark it recently used (Map keeps insertion order).
        entries.delete(key);
        entries.set(key, hit);
        return hit.value as T;
      }
      const value = JSON.parse(raw) as T; // throws on a corrupt entry: the caller treats it as a miss
      deepFreeze(value);
      remove(key);
      if (raw.length > maxChars) return value;
      while (entries.size > 0 && (entries.size >= maxEntries || chars + raw.length > maxChars)) remove(entries.keys().next().value!);
      entries.set(key, { raw, value });
      chars += raw.length;
      return value;
    },
  };
}
