import { describe, expect, it } from 'vitest';
import { createPageMemo, serializedData } from '../../src/domain/caching/page-memo.js';

describe('page memo', () => {
  it('answers only for the very leg values the page was built from', () => {
    const memo = createPageMemo();
    const legA = { items: [1] };
    const legB = { items: [2] };
    const page = memo.set('sandbox|q|20|true|', [legA, legB], { data: [{ id: 'x' }] });
    expect(memo.get('sandbox|q|20|true|', [legA, legB])).toBe(page);
    expect(memo.get('live|q|20|true|', [legA, legB])).toBeNull();
    // an equal but re-parsed leg is a changed entry: the page is dropped and built again
    expect(memo.get('sandbox|q|20|true|', [legA, { items: [2] }])).toBeNull();
    expect(memo.get('sandbox|q|20|true|', [legA, legB])).toBeNull();
  });

  it('freezes a stored page and serializes its data once, for stored pages only', () => {
    const memo = createPageMemo();
    const page = memo.set('k', [], { data: [{ id: 'x', n: 1 }], meta: 'kept' });
    expect(() => (page.data as { id: string }[]).push({ id: 'y' } as never)).toThrow(TypeError);
    const text = serializedData(page.data);
    expect(text).toBe('[{"id":"x","n":1}]');
    expect(serializedData(page.data)).toBe(text);
    expect(serializedData([{ id: 'x', n: 1 }])).toBeUndefined();
  });

  it('stays bounded, dropping the least recently used page', () => {
    const memo = createPageMemo(2);
    const leg = {};
    memo.set('a', [leg], { data: [] });
    memo.set('b', [leg], { data: [] });
    expect(memo.get('a', [leg])).not.toBeNull(); // a is now the most recently used
    memo.set('c', [leg], { data: [] });
    expect(memo.get('b', [leg])).toBeNull();
    expect(memo.get('a', [leg])).not.toBeNull();
    expect(memo.get('c', [leg])).not.toBeNull();
  });
});
