import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPageMemo } from '../../src/domain/caching/page-memo.js';
import { rememberValidPages, trustValidatedPage } from '../../src/router/page-output.js';

const Envelope = () =>
  z.object({
    data: z.array(z.object({ id: z.string(), n: z.number() })),
    meta: z.object({ requestId: z.string(), place: z.object({ name: z.string(), query: z.string() }).optional() }),
  });

describe('output validation of memoized pages', () => {
  it('sends a trusted answer as built once its page and a meta were left unchanged by the schema', () => {
    const schema = rememberValidPages(Envelope());
    const page = createPageMemo().set('k', [], { data: [{ id: 'x', n: 1 }] });
    const answers = [1, 2, 3, 4].map((i) => ({ data: page.data, meta: { requestId: `req_${i}` } }));
    answers.forEach(trustValidatedPage);
    const out = answers.map((a) => schema.parse(a));
    // first two calls: parsed in full (a copy); later calls: the answer itself, its own meta
    expect(out[0]).not.toBe(answers[0]);
    expect(out[1]).not.toBe(answers[1]);
    expect(out[2]).toBe(answers[2]);
    expect(out[3]).toBe(answers[3]);
    expect(out.map((o) => o.meta.requestId)).toEqual(['req_1', 'req_2', 'req_3', 'req_4']);
    for (const o of out.slice(1)) expect(o.data).toBe(page.data);
  });

  it('keeps parsing the meta when the schema changed it (key order), and every answer that is not trusted', () => {
    const schema = rememberValidPages(Envelope());
    const page = createPageMemo().set('k', [], { data: [{ id: 'x', n: 1 }] });
    const built = (i: number) => ({ data: page.data, meta: { requestId: `req_${i}`, place: { query: 'q', name: 'Lisbon' } } });
    const trusted = [1, 2, 3].map(built);
    trusted.forEach(trustValidatedPage);
    const out = trusted.map((a) => schema.parse(a));
    expect(out[2]).not.toBe(trusted[2]);
    expect(JSON.stringify(out[2]!.meta.place)).toBe('{"name":"Lisbon","query":"q"}');
    // a bad meta on an untrusted answer of a validated page is still refused
    expect(() => schema.parse({ data: page.data, meta: { requestId: 3 } })).toThrow();
  });
});
