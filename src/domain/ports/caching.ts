/** The leg cache: JSON text under keys built by domain/caching/cache-policy.ts, each with its TTL. */
export interface Cache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
}
