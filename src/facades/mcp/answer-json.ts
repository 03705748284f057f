import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isPageData, serializedData } from '../../domain/caching/page-memo.js';
import { ENVELOPE_OPEN, envelopeParts, pageBytes } from '../envelope-json.js';

/**
 * The JSON-RPC answer to a tools/call as the bytes of `JSON.stringify`, without serializing a
 * memoized page (issue 15) twice per call (issue 29): once as `structuredContent.data`, once
 * inside the result's text, where the envelope is a JSON string (escaped). Both forms of the page
 * are made once per page (its bytes by envelope-json.ts, its escaped bytes here) and written
 * between the pieces of the rest of the message, which is serialized as usual.
 * test/unit/mcp-answer-json.test.ts and test/facades/mcp-answer-bytes.test.ts hold the bytes to
 * JSON.stringify's and to the SDK transport's.
 */

interface DescribedEnvelope {
  envelope: Record<string, unknown>;
  page: object;
  /** The envelope's JSON is ENVELOPE_OPEN + the page's JSON + close. */
  close: string;
  /** The result's text: head + the page's JSON + close. */
  text: string;
  head: string;
}

/**
 * Envelopes whose page went into a result text, keyed by the envelope's `meta`: the SDK validates
 * a result into a copy (new content and structuredContent objects) but hands `meta` on as is.
 */
const described = new WeakMap<object, DescribedEnvelope>();

/** The page's JSON escaped as the inside of a JSON string, as UTF-8 bytes, per page, made once. */
const escapedPages = new WeakMap<object, Buffer>();

/**
 * A result's text: `line`, a newline and the envelope's JSON. When the envelope's data is a
 * memoized page, the envelope is remembered in parts for answerBody.
 */
export function resultText(line: string, envelope: { data: unknown; meta: unknown }): string {
  const parts = envelopeParts(envelope);
  if (!parts) return `${line}\n${JSON.stringify(envelope)}`;
  const head = `${line}\n${ENVELOPE_OPEN}`;
  const text = `${head}${parts.json}${parts.close}`;
  if (envelope.meta !== null && typeof envelope.meta === 'object') {
    described.set(envelope.meta, { envelope: envelope as Record<string, unknown>, page: parts.page, close: parts.close, text, head });
  }
  return text;
}

/** Random per process, so no string a caller sends can be taken for a placeholder. */
const NONCE = randomUUID();
const PLACEHOLDER = new RegExp(`"${NONCE}:(page|text|envelope)"`);
const [PAGE, TEXT, ENVELOPE] = ['page', 'text', 'envelope'].map((kind) => `${NONCE}:${kind}`) as [string, string, string];

/** The SDK's copy of an envelope: the same keys in the same order with the same values, so the same JSON. */
function sameEnvelope(copy: object, original: Record<string, unknown>): boolean {
  const keys = Object.keys(copy);
  const originalKeys = Object.keys(original);
  return keys.length === originalKeys.length && keys.every((k, i) => k === originalKeys[i] && (copy as Record<string, unknown>)[k] === original[k]);
}

/**
 * `JSON.stringify(message)` as UTF-8: the string itself when no memoized page is in the message,
 * else chunks to write in a row. The replacer swaps placeholders in for the envelope (or the bare
 * page) and the text; a value's JSON does not depend on where it sits (no indentation), so each
 * can be swapped back for its JSON. Escaping goes code unit by code unit but for surrogate pairs,
 * which cannot straddle the cuts (the page's JSON starts with `{` or `[` and ends with `}` or
 * `]`), so the text's escaped form is its escaped parts in a row.
 */
export function answerBody(message: unknown): string | (string | Buffer)[] {
  const content = (message as { result?: { structuredContent?: { data?: unknown; meta?: unknown } } } | null)?.result?.structuredContent;
  const page = content?.data;
  if (!isPageData(page)) return JSON.stringify(message);
  const meta = content!.meta;
  const found = meta !== null && typeof meta === 'object' ? described.get(meta) : undefined;
  const entry = found?.page === page ? found : undefined;
  const whole = entry !== undefined && sameEnvelope(content!, entry.envelope) ? content : undefined;
  const skeleton = JSON.stringify(message, (_key, value: unknown) =>
    whole !== undefined && value === whole ? ENVELOPE : value === page ? PAGE : entry !== undefined && value === entry.text ? TEXT : value,
  );
  // The small skeleton is cut at the placeholders; the strings between are written as they are.
  const parts: (string | Buffer)[] = [];
  let pending = '';
  const pieces = skeleton.split(PLACEHOLDER);
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (i % 2 === 0) pending += piece;
    else if (piece === 'page') {
      parts.push(pending, pageBytes(page));
      pending = '';
    } else if (piece === 'envelope') {
      parts.push(pending + ENVELOPE_OPEN, pageBytes(page));
      pending = entry!.close;
    } else {
      parts.push(`${pending}"${escapedHead(entry!.head)}`, escapedPage(page));
      pending = `${escaped(entry!.close)}"`;
    }
  }
  parts.push(pending);
  return parts;
}

/**
 * Writes a JSON-RPC answer as the SDK's transport does in JSON mode (status, header names and
 * order as @hono/node-server writes them), its body answerBody's.
 */
export function writeAnswer(res: ServerResponse, message: unknown): void {
  const body = answerBody(message);
  if (typeof body === 'string') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    return void res.end(body);
  }
  // The parts written into one buffer and ended with it, as REST does (openapi-core.ts): a copy
  // of 50 kB costs less than the stream's work per written chunk, and the head and body leave in
  // one write.
  let length = 0;
  for (const part of body) length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  const whole = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of body) at += typeof part === 'string' ? whole.write(part, at) : part.copy(whole, at);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': length });
  res.end(whole);
}

/** answerBody as one string (what JSON.stringify gives). */
export function answerJson(message: unknown): string {
  const body = answerBody(message);
  return typeof body === 'string' ? body : Buffer.concat(body.map((part) => (typeof part === 'string' ? Buffer.from(part) : part))).toString();
}

function escaped(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/** A result text's head (its summary line) escaped, per line: a tool's lines repeat call after call. */
const escapedHeads = new Map<string, string>();
function escapedHead(head: string): string {
  let out = escapedHeads.get(head);
  if (out === undefined) {
    out = escaped(head);
    if (escapedHeads.size >= 1_000) escapedHeads.clear();
    escapedHeads.set(head, out);
  }
  return out;
}

function escapedPage(page: object): Buffer {
  let bytes = escapedPages.get(page);
  if (bytes === undefined) {
    bytes = Buffer.from(escaped(serializedData(page)!));
    escapedPages.set(page, bytes);
  }
  return bytes;
}
