import type { IncomingMessage } from 'node:http';
import { ServiceError } from '../../domain/errors.js';

export const MAX_BODY_BYTES = 100_000;

/**
 * Query parameters as trpc-to-openapi reads them from `req.query`: repeated keys become arrays
 * and a trailing `[]` is dropped, so `platforms[]=a&platforms[]=b` equals `platforms=a,b`.
 */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function parseQuery(search: string): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null);
  for (const [rawKey, value] of new URLSearchParams(search)) {
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    if (RESERVED_KEYS.has(key)) continue; // never a parameter; would reach Object.prototype
    (out[key] ??= []).push(value);
  }
  return out;
}

function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new ServiceError('payload_too_large', `The request body is larger than ${limit} bytes.`, { param: 'body' }));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    // A small body arrives as one chunk, which needs no copy.
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A JSON body in any charset the platform can decode (`application/json; charset=utf-16le`
 * included), read here because the core handler ignores anything but exactly application/json
 * (stack-notes pitfall 6). An empty body is `{}`.
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const contentType = req.headers['content-type'] ?? '';
  const raw = await readRaw(req, MAX_BODY_BYTES);
  if (raw.length === 0) return {};
  const charset = contentType === 'application/json' ? 'utf-8' : charsetOf(contentType);
  let text: string;
  try {
    text = decoderFor(charset).decode(raw);
  } catch {
    throw new ServiceError('unsupported_media_type', `The body could not be decoded as ${charset}.`, { param: 'body', subCode: 'unsupported_charset' });
  }
  const json = text.replace(/^\uFEFF/, '');
  if (nestingDepth(json) > MAX_JSON_DEPTH) {
    throw new ServiceError('invalid_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, { subCode: 'json_too_deep', param: 'body' });
  }
  try {
    return JSON.parse(json);
  } catch {
    throw new ServiceError('invalid_request', 'The request body is not valid JSON.', { subCode: 'invalid_json', param: 'body' });
  }
}

/** The charset of a JSON media type (utf-8 unless named); any other media type is refused. */
function charsetOf(contentType: string): string {
  const [mime, ...params] = contentType.split(';').map((s) => s.trim().toLowerCase());
  if (mime !== 'application/json' && !(mime?.startsWith('application/') && mime.endsWith('+json'))) {
    throw new ServiceError('unsupported_media_type', 'Send the body as application/json.', { param: 'body' });
  }
  return params.find((p) => p.startsWith('charset='))?.slice(8).replace(/"/g, '') || 'utf-8';
}

/**
 * One fatal decoder per charset label, made on first use: building a TextDecoder costs more than
 * decoding a small body with it, and decode() without `stream` keeps no state between calls. Only
 * labels the platform knows get here (the constructor throws for others), so the map stays small.
 */
const decoders = new Map<string, TextDecoder>();
function decoderFor(charset: string): TextDecoder {
  let decoder = decoders.get(charset);
  if (!decoder) {
    decoder = new TextDecoder(charset, { fatal: true });
    decoders.set(charset, decoder);
  }
  return decoder;
}

/**
 * No request of ours nests past a few levels; a body nested thousands deep (small enough for the
 * size limit) would overflow the stack of recursive code downstream (validation, coercion).
 */
export const MAX_JSON_DEPTH = 64;

/** The deepest array/object nesting of a JSON text, outside strings; one linear pass. */
export function nestingDepth(json: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}
