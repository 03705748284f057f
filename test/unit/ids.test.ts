import { describe, expect, it } from 'vitest';
import { createIds } from '../../src/adapters/system/ids.js';

describe('ids', () => {
  it('are prefixed ULIDs, unique and increasing across many blocks of the buffered random source', () => {
    const ids = createIds();
    const seen = new Set<string>();
    let previous = '';
    for (let i = 0; i < 5_000; i++) {
      const id = ids.requestId();
      expect(id).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(id > previous).toBe(true);
      seen.add(id);
      previous = id;
    }
    expect(seen.size).toBe(5_000);
    expect(ids.jobId()).toMatch(/^job_/);
  });

  it('two generators do not repeat each other', () => {
    const [a, b] = [createIds(), createIds()];
    const left = new Set(Array.from({ length: 200 }, () => a.keyId().slice(-16)));
    const right = Array.from({ length: 200 }, () => b.keyId().slice(-16));
    expect(right.filter((r) => left.has(r))).toEqual([]);
  });
});
