import { isPageData, serializedData } from '../domain/caching/page-memo.js';

/**
 * The faces write `{ data, meta }` themselves when `data` is a memoized page (issue 15): its JSON
 * text was made once (page-memo.ts), so only the per-request rest of the envelope is serialized.
 * Node 20 has no JSON.rawJSON, hence the splice. The text is the one JSON.stringify would give
 * for an envelope whose `data` comes first, as every envelope's does (router/billing/envelope.ts).
 */
export function envelopeJson(envelope: object): string | undefined {
  const parts = envelopeParts(envelope);
  return parts && `${ENVELOPE_OPEN}${parts.json}${parts.close}`;
}

export const ENVELOPE_OPEN = '{"data":';

/**
 * envelopeJson in its three parts: ENVELOPE_OPEN, the page's JSON text and the per-request rest
 * (from the comma or brace after `data` to the end). A face that embeds the envelope in a larger
 * text (MCP's tool result text) keeps the page's part apart, to reuse what it made of it.
 */
export function envelopeParts(envelope: object): { page: object; json: string; close: string } | undefined {
  const page = (envelope as { data?: unknown }).data;
  const json = serializedData(page);
  if (json === undefined) return undefined;
  const { data: _data, ...rest } = envelope as Record<string, unknown>;
  const tail = JSON.stringify(rest);
  return { page: page as object, json, close: tail === '{}' ? '}' : `,${tail.slice(1)}` };
}

/** A memoized page's data as UTF-8 bytes, encoded once: a body is then one copy, not an encoding of 22 kB. */
const encoded = new WeakMap<object, Buffer>();
/**
 * Pages sent once: bytes are made on the second send. A page that is never asked for again (a
 * process cycling through more queries than its memos hold) then costs no text and bytes beyond
 * what JSON.stringify of its answer makes anyway.
 */
const sentOnce = new WeakSet<object>();
const DATA_OPEN = Buffer.from('{"data":');

/**
 * The envelope as the bytes envelopeJson would give, in three chunks (head, the page's bytes, the
 * per-request tail) so the 22 kB are not copied into a new buffer per request; undefined when its
 * data is not a memoized page, or on the page's first send.
 */
export function envelopeBytes(envelope: object): Buffer[] | undefined {
  const data = (envelope as { data?: unknown }).data;
  if (!isPageData(data)) return undefined;
  let bytes = encoded.get(data);
  if (!bytes) {
    if (!sentOnce.has(data)) {
      sentOnce.add(data);
      return undefined;
    }
    bytes = Buffer.from(serializedData(data)!);
    encoded.set(data, bytes);
  }
  const { data: _data, ...rest } = envelope as Record<string, unknown>;
  const tail = JSON.stringify(rest);
  return [DATA_OPEN, bytes, Buffer.from(tail === '{}' ? '}' : `,${tail.slice(1)}`)];
}

/** A memoized page's JSON as UTF-8 bytes, the ones envelopeBytes sends, made on this first use. */
export function pageBytes(page: object): Buffer {
  let bytes = encoded.get(page);
  if (!bytes) {
    bytes = Buffer.from(serializedData(page)!);
    encoded.set(page, bytes);
  }
  return bytes;
}
