/**
 * The finished answer of a fully cached call (issue 15). A search whose every leg came from the
 * cache used to merge, fold and sign its page again on every hit; the memo keeps the result built
 * from exactly those leg values, keyed by key kind, query hash and cursor. A hit needs the same
 * leg values by identity: the parsed memo hands out one frozen value per unchanged cache string,
 * so a leg entry that was rewritten, expired or re-fetched yields a new value and the page is
 * built again. Only what the legs and the query decide is kept; per-request fields (request id,
 * credits, rate limits, unknown-parameter warnings) are added by the router on every call.
 *
 * A memoized page is deep-frozen (every caller shares it), and its `data` can be serialized once
 * (`serializedData`): a face that writes the body itself splices that text instead of running
 * JSON.stringify over about 22 kB per call.
 */
export interface PageMemo {
  /** The value stored under `key` for exactly these leg values (by identity), or null. */
  get<T>(key: string, legs: readonly unknown[]): T | null;
  /** Stores `value` (deep-frozen, its `data` registered for serializedData) and returns it. */
  set<T extends { data: unknown }>(key: string, legs: readonly unknown[], value: T): T;
}

/** Frozen page data -> its JSON text, computed on first use. Keyed weakly: it goes with the page. */
const serialized = new WeakMap<object, string | null>();

/**
 * The JSON text of a memoized page's `data`, or undefined for anything else. Safe to reuse
 * because the data is frozen: the text cannot go stale.
 */
export function serializedData(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object' || !serialized.has(data)) return undefined;
  let json = serialized.get(data);
  if (json === null || json === undefined) {
    json = JSON.stringify(data);
    serialized.set(data, json);
  }
  return json;
}

/** True for the data of a memoized page (frozen, serializable once), without serializing it. */
export function isPageData(data: unknown): data is object {
  return data !== null && typeof data === 'object' && serialized.has(data);
}

export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}

/**
 * Leg values are held weakly: a page must not keep alive the legs the parsed memo let go (a leg
 * parsed again is a new value, so such a page could never be hit anyway).
 */
type LegRefs = readonly (WeakRef<object> | unknown)[];

function refsOf(legs: readonly unknown[]): LegRefs {
  return legs.map((v) => (v !== null && typeof v === 'object' ? new WeakRef(v) : v));
}

function sameLegs(refs: LegRefs, legs: readonly unknown[]): boolean {
  return refs.length === legs.length && refs.every((r, i) => (r instanceof WeakRef ? r.deref() : r) === legs[i]);
}

/** Bounded by entries; the least recently used entry goes first. */
export function createPageMemo(maxEntries = 1_000): PageMemo {
  const entries = new Map<string, { legs: LegRefs; value: unknown }>();
  return {
    get<T>(key: string, legs: readonly unknown[]): T | null {
      const hit = entries.get(key);
      if (!hit) return null;
      if (!sameLegs(hit.legs, legs)) {
        entries.delete(key); // a leg changed: the page is rebuilt and stored again
        return null;
      }
      entries.delete(key);
      entries.set(key, hit);
      return hit.value as T;
    },
    set<T extends { data: unknown }>(key: string, legs: readonly unknown[], value: T): T {
      deepFreeze(value);
      if (value.data !== null && typeof value.data === 'object' && !serialized.has(value.data)) serialized.set(value.data, null);
      entries.delete(key);
      while (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { legs: refsOf(legs), value });
      return value;
    },
  };
}
