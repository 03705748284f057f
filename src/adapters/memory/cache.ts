import type { Clock } from '../../domain/ports.js';
import type { Cache } from '../../domain/service-ports.js';

/** In-process twin of the Redis cache: for the embedded default and unit tests. */
export function createMemoryCache(clock: Clock, maxEntries = 10_000): Cache {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  return {
    async get(key) {
      const hit = entries.get(key);
      if (!hit) return null;
      if (hit.expiresAt <= clock.now().getTime()) {
        entries.delete(key);
        return null;
      }
      return hit.value;
    },
    async set(key, value, ttlMs) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.delete(key);
      entries.set(key, { value, expiresAt: clock.now().getTime() + ttlMs });
    },
  };
}
