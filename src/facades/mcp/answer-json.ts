import { randomUUID } from 'node:crypto';
import { isPageData, serializedData } from '../../domain/caching/page-memo.js';
import { ENVELOPE_OPEN, envelopeParts, pageBytes } from '../envelope-json.js';

/**
 * The JSON-RPC answer to a tools/call as the text `JSON.stringify` gives, without serializing a
 * memoized page (issue 29) twice per call: once as `structuredContent.data` and once inside the
 * result's text, where the envelope is a JSON string (escaped). Both forms of the page are made
 * once per page (its JSON text by page-memo.ts, its escaped form here) and spliced into the rest
 * of the message, which is serialized as usual. test/facades/mcp-answer-bytes.test.ts holds the
 * bytes to the SDK transport's own.
 */

interface DescribedText {
  text: string;
  /** `text` is `before + <the page's JSON> + after`. */
  before: string;
  page: object;
  after: string;
}

/**
 * Result texts that embed a memoized page, keyed by the envelope's `meta`: the SDK validates a
 * result into a copy (new content and structuredContent objects) but hands `meta` on as is.
 */
const described = new WeakMap<object, DescribedText>();

/** The page's JSON text escaped as the inside of a JSON string, as UTF-8 bytes, per page, made once. */
const escapedPages = new WeakMap<object, Buffer>();

/**
 * A result's text: `line`, a newline and the envelope's JSON. When the envelope's data is a
 * memoized page, the text is remembered in parts so answerJson can splice its escaped form.
 */
export function resultText(line: string, envelope: { data: unknown; meta: unknown }, envelopeJson: () => string): string {
  const parts = envelopeParts(envelope);
  if (!parts) return `${line}\n${envelopeJson()}`;
  const before = `${line}\n${ENVELOPE_OPEN}`;
  const text = `${before}${parts.json}${parts.close}`;
  if (envelope.meta !== null && typeof envelope.meta === 'object') described.set(envelope.meta, { text, before, page: parts.page, after: parts.close });
  return text;
}

/** Random per process, so no value a caller sends can equal a placeholder. */
const PAGE = `\u0000page:${randomUUID()}`;
const TEXT = `\u0000text:${randomUUID()}`;
const PAGE_QUOTED = JSON.stringify(PAGE);
const TEXT_QUOTED = JSON.stringify(TEXT);

/**
 * `JSON.stringify(message)` as UTF-8 bytes, with the page and the text that embeds it written from
 * their memoized bytes: a string (plain JSON.stringify) when no memoized page is in the message,
 * else chunks to write in a row. A value's JSON does not depend on where it sits (no indentation),
 * so the placeholder the replacer swaps in for it can be swapped back for that JSON; and escaping
 * works code unit by code unit but for surrogate pairs, which cannot straddle the cuts (the page's
 * JSON starts with `{` or `[` and ends with `}` or `]`), so the text's escaped form is the escaped
 * parts in a row.
 */
export function answerBody(message: unknown): string | Buffer[] {
  const content = (message as { result?: { structuredContent?: { data?: unknown; meta?: unknown } } } | null)?.result?.structuredContent;
  const page = content?.data;
  if (!isPageData(page)) return JSON.stringify(message);
  const meta = content!.meta;
  const found = meta !== null && typeof meta === 'object' ? described.get(meta) : undefined;
  const entry = found?.page === page ? found : undefined;
  const skeleton = JSON.stringify(message, (_key, value: unknown) => (value === page ? PAGE : entry !== undefined && value === entry.text ? TEXT : value));
  // The small skeleton is cut at the placeholders; the strings between go out as small buffers.
  const chunks: Buffer[] = [];
  let pending = '';
  const flush = () => {
    if (pending !== '') chunks.push(Buffer.from(pending));
    pending = '';
  };
  skeleton.split(PAGE_QUOTED).forEach((piece, i) => {
    if (i > 0) {
      flush();
      chunks.push(pageBytes(page));
    }
    piece.split(TEXT_QUOTED).forEach((part, j) => {
      if (j > 0) {
        pending += `"${escaped(entry!.before)}`;
        flush();
        chunks.push(escapedPage(page));
        pending = `${escaped(entry!.after)}"`;
      }
      pending += part;
    });
  });
  flush();
  return chunks;
}

/** answerBody as one string (what JSON.stringify gives). */
export function answerJson(message: unknown): string {
  const body = answerBody(message);
  return typeof body === 'string' ? body : Buffer.concat(body).toString();
}

function escaped(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

function escapedPage(page: object): Buffer {
  let bytes = escapedPages.get(page);
  if (bytes === undefined) {
    bytes = Buffer.from(escaped(serializedData(page)!));
    escapedPages.set(page, bytes);
  }
  return bytes;
}
