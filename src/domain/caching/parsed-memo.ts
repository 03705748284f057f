import { getHeapStatistics } from 'node:v8';
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


/**
 * How much the memo holds by default: enough for the legs of a few thousand distinct hot searches
 * (8,000 entries; a 4-platform search is 4 legs of about 22 kB each). A working set larger than the
 * memo is a worst case for least-recently-used: a stream of searches cycling through it misses on
 * every leg and re-parses about 86 kB per search (at 2,000 entries, 1,000 queries cycled ran at a
 * third of the speed, and the heap and RSS at rest swung by 6% between equal phases; issue 29).
 * The characters are capped at a 32nd of the heap's limit (128 M on a 4 GB heap, less in a small
 * container), the parsed values taking about as much again.
 */
const DEFAULT_MAX_ENTRIES = 8_000;
const DEFAULT_MAX_CHARS = Math.min(128 * 1024 * 1024, Math.floor(getHeapStatistics().heap_size_limit / 32));

/** Bounded by entries and by characters held; the least recently used entry goes first. */
export function createParsedMemo(maxEntries = DEFAULT_MAX_ENTRIES, maxChars = DEFAULT_MAX_CHARS): ParsedMemo {
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
