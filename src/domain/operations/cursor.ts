import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../errors.js';

/**
 * Opaque pagination cursors (design.md section 3): base64url of a versioned JSON state holding
 * per-source positions and a hash of the query, signed so a tampered cursor is refused.
 */
export interface CursorState {
  /** Position per source (platform, or "offset" for single-source lists). */
  positions: Record<string, number>;
}

interface Wire {
  v: 1;
  q: string;
  p: Record<string, number>;
  s: string;
}

/** A stable hash of the parts of a query that must not change between pages. */
export function queryHash(boundQuery: unknown): string {
  return sha256Text(stableJson(boundQuery)).slice(0, 16);
}

/**
 * queryHash(query), remembered under `key`, a text that fully determines the query (the caller
 * builds it from parts it writes anyway): a hot cached call then skips writing the query again.
 * Bounded like the digests below.
 */
const queryHashes = new Map<string, string>();
export function rememberedQueryHash(key: string, query: unknown): string {
  let hash = queryHashes.get(key);
  if (hash !== undefined) return hash;
  hash = queryHash(query);
  if (key.length <= 4_096) {
    if (queryHashes.size >= 10_000) queryHashes.delete(queryHashes.keys().next().value!);
    queryHashes.set(key, hash);
  }
  return hash;
}

/**
 * SHA-256 (base64url) of a key text, remembered: a hot cached call hashes the same few texts
 * (its query, its legs' cache keys) on every request. Bounded; long texts are not kept.
 */
const digests = new Map<string, string>();
export function sha256Text(text: string): string {
  let digest = digests.get(text);
  if (digest !== undefined) return digest;
  digest = hash('sha256', text, 'base64url');
  if (text.length <= 4_096) {
    if (digests.size >= 10_000) digests.delete(digests.keys().next().value!);
    digests.set(text, digest);
  }
  return digest;
}

/** A part already written by stableJson, embedded as is: a part shared by several keys is serialized once. */
export class StableText {
  constructor(readonly text: string) {}
}

/**
 * JSON with object keys sorted, so equal queries hash equally whatever their key order. Written
 * as loops: it runs a few times on every call (query hash, cache keys).
 */
export function stableJson(value: unknown): string {
  if (value instanceof StableText) return value.text;
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + stableJson(value[i]);
    return `${out}]`;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // The default sort orders by UTF-16 code units, as `<` on strings does.
    const keys = Object.keys(record).sort();
    let out = '{';
    for (const key of keys) {
      const v = record[key];
      if (v === undefined) continue;
      out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${stableJson(v)}`;
    }
    return `${out}}`;
  }
  return JSON.stringify(value ?? null);
}

function sign(secret: string, q: string, p: Record<string, number>): string {
  return createHmac('sha256', secret).update(`1|${q}|${stableJson(p)}`).digest('base64url').slice(0, 22);
}

export function encodeCursor(secret: string, hash: string, state: CursorState): string {
  const wire: Wire = { v: 1, q: hash, p: state.positions, s: sign(secret, hash, state.positions) };
  return Buffer.from(JSON.stringify(wire)).toString('base64url');
}

/** Decodes a cursor issued for this query; anything else is 400 invalid_cursor. */
export function decodeCursor(secret: string, hash: string, cursor: string, param = 'cursor'): CursorState {
  const invalid = (why: string) =>
    new ServiceError('invalid_cursor', `The cursor is not valid for this query (${why}). Start again without a cursor.`, { param });
  if (cursor.length > 2048 || !/^[A-Za-z0-9_-]+={0,2}$/.test(cursor)) throw invalid('malformed');
  let wire: Wire;
  try {
    wire = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Wire;
  } catch {
    throw invalid('malformed');
  }
  if (!wire || wire.v !== 1 || typeof wire.q !== 'string' || typeof wire.s !== 'string' || !isPositions(wire.p)) {
    throw invalid('malformed');
  }
  const expected = Buffer.from(sign(secret, wire.q, wire.p));
  const given = Buffer.from(wire.s);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid('tampered');
  if (wire.q !== hash) throw invalid('issued for another query');
  return { positions: wire.p };
}

function isPositions(p: unknown): p is Record<string, number> {
  if (!p || typeof p !== 'object' || Array.isArray(p)) return false;
  return Object.values(p).every((n) => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= 100_000);
}
