import { describe, expect, it } from 'vitest';
import { createParsedMemo } from '../../src/domain/caching/parsed-memo.js';
import { runLegs, type LegSpec } from '../../src/domain/operations/fan-out.js';
import { createMemoryCache } from '../../src/adapters/memory/cache.js';

describe('parsed memo of cache hits', () => {
  it('reuses the parsed value while the cached string is unchanged, and re-parses when it changes', () => {
    const memo = createParsedMemo();
    const raw = JSON.stringify({ items: [{ id: 'a' }], hasMore: false });
    const first = memo.parse<{ items: { id: string }[] }>('k', raw);
    // an equal string read again from the store (a different string object) is still a hit
    const second = memo.parse<{ items: { id: string }[] }>('k', JSON.stringify(JSON.parse(raw)));
    expect(second).toBe(first);
    const rewritten = memo.parse<{ items: { id: string }[] }>('k', JSON.stringify({ items: [{ id: 'b' }], hasMore: false }));
    expect(rewritten).not.toBe(first);
    expect(rewritten.items[0]!.id).toBe('b');
  });

  it('deep-freezes shared values so a mutating caller fails loudly', () => {
    const memo = createParsedMemo();
    const value = memo.parse<{ items: { id: string }[] }>('k', '{"items":[{"id":"a"}]}');
    expect(() => {
      value.items[0]!.id = 'changed';
    }).toThrow(TypeError);
    expect(() => value.items.push({ id: 'x' })).toThrow(TypeError);
  });

  it('throws on a corrupt entry and stays bounded by entries and characters', () => {
    const memo = createParsedMemo(2, 1_000);
    expect(() => memo.parse('bad', '{not json')).toThrow();
    const a = memo.parse('a', '[1]');
    memo.parse('b', '[2]');
    memo.parse('c', '[3]'); // evicts a, the least recently used
    expect(memo.parse('a', '[1]')).not.toBe(a);
    const big = `"${'x'.repeat(2_000)}"`;
    const first = memo.parse('big', big);
    expect(memo.parse('big', big)).toBe(first); // same primitive value, but never kept: no growth beyond maxChars
  });

  it('lets fan-out answer a cached leg from the memo instead of re-parsing it', async () => {
    const clock = { now: () => new Date('2026-11-23T12:00:00Z') };
    const cache = createMemoryCache(clock);
    const parsed = createParsedMemo();
    let runs = 0;
    const spec: LegSpec<{ items: string[] }> = {
      platform: 'airbnb',
      operation: 'search',
      run: async () => {
        runs++;
        return { items: ['x'] };
      },
      count: (v) => v.items.length,
      cache: { key: 'search:airbnb:q', ttlMs: 60_000 },
    };
    const runtime = { legDeadlineMs: 1_000, cache, parsed };
    const miss = await runLegs([spec], runtime);
    expect(miss[0]!.cached).toBe(false);
    const hit1 = await runLegs([spec], runtime);
    const hit2 = await runLegs([spec], runtime);
    expect(runs).toBe(1);
    expect(hit1[0]!.cached).toBe(true);
    expect(hit2[0]!.value).toBe(hit1[0]!.value);
    expect(hit2[0]!.value).toEqual({ items: ['x'] });
  });
});
