import type { Clock } from '../../domain/ports/system.js';
import type { Cache } from '../../domain/ports/caching.js';

/**
 * In-process twin of the Redis cache, for the embedded default and unit tests. Bounded by entry
 * count and by total characters; the oldest entries go first.
 */
export function createMemoryCache(clock: Clock, maxEntries = 20_000, maxChars = 64 * 1024 * 1024): Cache {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  let chars = 0;
  const remove = (key: string) => {
    const old = entries.get(key);
    if (!old) return;
    chars -= old.value.length;
    entries.delete(key);
  };
  return {
    async get(key) {
      const hit = entries.get(key);
      if (!hit) return null;
      if (hit.expiresAt <= clock.now().getTime()) {
        remove(key);
        return null;
      }
      return hit.value;
    },
    async set(key, value, ttlMs) {
      remove(key);
      while (entries.size > 0 && (entries.size >= maxEntries || chars + value.length > maxChars)) remove(entries.keys().next().value!);
      if (value.length > maxChars) return;
      entries.set(key, { value, expiresAt: clock.now().getTime() + ttlMs });
      chars += value.length;
    },
  };
}
