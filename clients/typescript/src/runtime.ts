/**
 * The little the SDK needs of its platform, typed here rather than through the DOM or Node type
 * libraries, so a project compiles against the SDK whichever of them it uses (or neither).
 * Node 20+, Deno and Bun all provide these globals.
 */

/** The part of a fetch Response the SDK reads. */
export interface ResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface RequestInitLike {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** `fetch`, or anything shaped like it (a wrapper that logs, a test's recorder). */
export type FetchLike = (url: string, init: RequestInitLike) => Promise<ResponseLike>;

interface Globals {
  fetch?: FetchLike;
  setTimeout(callback: () => void, ms: number): unknown;
  crypto?: { randomUUID?: () => string; getRandomValues?: (bytes: Uint8Array) => Uint8Array };
}

const globals = globalThis as unknown as Globals;

export function defaultFetch(): FetchLike {
  const f = globals.fetch;
  if (!f) throw new Error('No global fetch: pass one as the `fetch` option (Node 20+ has it built in).');
  return f.bind(globalThis);
}

export function sleep(seconds: number): Promise<void> {
  return new Promise((resolve) => globals.setTimeout(resolve, Math.max(0, seconds) * 1000));
}

/** A fresh Idempotency-Key: a random UUID where the platform has one, else 128 random bits in hex. */
export function newIdempotencyKey(): string {
  const c = globals.crypto;
  if (c?.randomUUID) return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c?.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
