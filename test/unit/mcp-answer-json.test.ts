import { describe, expect, it } from 'vitest';
import { createPageMemo } from '../../src/domain/caching/page-memo.js';
import { answerBody, answerJson, resultText } from '../../src/facades/mcp/answer-json.js';

/**
 * answer-json.ts writes a tools/call answer from the memoized page's JSON and its escaped form;
 * the text must be JSON.stringify's for any page, whatever its strings hold.
 */
const TRICKY = ['plain', 'quote " and \\ backslash', 'line\nbreak\ttab\u0000nul\u001f', 'accents àéîõü ’ “curly”', 'emoji 🏖️🇵🇹', 'lone \ud83c high', 'lone \udfd6 low', 'separators \u2028 \u2029', '</script>', ''];

function memoizedEnvelope(key: string, data: unknown, meta: Record<string, unknown>) {
  const page = createPageMemo().set(key, [], { data, meta: {} });
  // The router adds the per-request meta to the shared page's data.
  return { data: page.data, meta };
}

/** What the SDK sends: its validation copies the result (new objects) but hands meta on as is. */
function sdkMessage(envelope: { data: unknown; meta: Record<string, unknown> }, text: string, id: unknown) {
  return { result: { content: [{ type: 'text', text }], structuredContent: { ...envelope } }, jsonrpc: '2.0', id };
}

describe('MCP answers from memoized pages', () => {
  it('are JSON.stringify of the answer, for strings of every kind in the page, the meta and the id', () => {
    for (const [i, s] of TRICKY.entries()) {
      const data = [{ id: `x${i}`, name: s, tags: TRICKY, nested: { s, n: i, none: null, yes: true } }];
      const envelope = memoizedEnvelope(`k${i}`, data, { requestId: `req_${i}`, note: s, list: [s, 1] });
      const text = resultText(`Search stays: ${s}`, envelope);
      expect(text).toBe(`Search stays: ${s}\n${JSON.stringify(envelope)}`);
      for (const id of [1, 0, `id ${s}`]) {
        const message = sdkMessage(envelope, text, id);
        expect(answerJson(message)).toBe(JSON.stringify(message));
        const body = answerBody(message);
        expect(Array.isArray(body), 'the page was spliced').toBe(true);
        expect(Buffer.concat((body as (string | Buffer)[]).map((part) => (typeof part === 'string' ? Buffer.from(part) : part))).equals(Buffer.from(JSON.stringify(message)))).toBe(true);
      }
    }
  });

  it('are JSON.stringify of the answer when the text is not the one made for the page', () => {
    const envelope = memoizedEnvelope('other', [{ a: 'ü"' }], { requestId: 'req_1' });
    resultText('line', envelope);
    const foreign = sdkMessage(envelope, `another text ${JSON.stringify(envelope)}`, 2);
    expect(answerJson(foreign)).toBe(JSON.stringify(foreign));
    const twice = { ...foreign, result: { ...foreign.result, content: [foreign.result.content[0], { type: 'text', text: 'ü' }] } };
    expect(answerJson(twice)).toBe(JSON.stringify(twice));
  });

  it('are JSON.stringify of the answer when the envelope was copied with other keys, or a value is undefined', () => {
    const envelope = memoizedEnvelope('copied', [{ a: 'x' }], { requestId: 'req_2' });
    const text = resultText('line', envelope);
    const reordered = { ...sdkMessage(envelope, text, 3), result: { content: [{ type: 'text', text }], structuredContent: { meta: envelope.meta, data: envelope.data } } };
    const extra = { ...sdkMessage(envelope, text, 4), result: { content: [{ type: 'text', text }], structuredContent: { ...envelope, more: 1 }, isError: undefined } };
    for (const message of [reordered, extra]) {
      expect(Array.isArray(answerBody(message))).toBe(true);
      expect(answerJson(message)).toBe(JSON.stringify(message));
    }
  });

  it('are plain JSON.stringify without a memoized page', () => {
    const message = { result: { content: [{ type: 'text', text: 'x' }], structuredContent: { data: [{ a: 1 }], meta: {} } }, jsonrpc: '2.0', id: 1 };
    expect(answerBody(message)).toBe(JSON.stringify(message));
    const error = { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unknown tool' } };
    expect(answerBody(error)).toBe(JSON.stringify(error));
  });
});
