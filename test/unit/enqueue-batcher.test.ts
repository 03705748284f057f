import { describe, expect, it } from 'vitest';
import { Failed, batcher } from '../../src/adapters/postgres/jobs/batcher.js';

/** A `run` that records each batch and answers when the test says so. */
function recorder<I>() {
  const batches: I[][] = [];
  const pending: { inputs: I[]; resolve: (outs: string[]) => void; reject: (err: unknown) => void }[] = [];
  const run = (inputs: I[]) => {
    batches.push(inputs);
    return new Promise<string[]>((resolve, reject) => pending.push({ inputs, resolve, reject }));
  };
  const answer = (i: number) => pending[i]!.resolve(pending[i]!.inputs.map((x) => `out:${String(x)}`));
  return { run, batches, pending, answer };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('the enqueue batcher (group commit)', () => {
  it('sends a lone call at once, by itself', async () => {
    const r = recorder<number>();
    const call = batcher(r.run, 50, 2);
    const out = call(1);
    await turn();
    expect(r.batches).toEqual([[1]]);
    r.answer(0);
    await expect(out).resolves.toBe('out:1');
  });

  it('sends calls of the same turn together, and calls made while batches are in flight as the next batch, each answered with its own output', async () => {
    const r = recorder<number>();
    const call = batcher(r.run, 50, 1);
    const first = [1, 2, 3].map(call);
    await turn();
    const second = [4, 5, 6, 7].map(call);
    await turn();
    expect(r.batches).toEqual([[1, 2, 3]]); // one in flight at most: the next waits
    r.answer(0);
    await expect(Promise.all(first)).resolves.toEqual(['out:1', 'out:2', 'out:3']);
    await turn();
    expect(r.batches).toEqual([[1, 2, 3], [4, 5, 6, 7]]);
    r.answer(1);
    await expect(Promise.all(second)).resolves.toEqual(['out:4', 'out:5', 'out:6', 'out:7']);
  });

  it('cuts a burst at the batch size and keeps at most the given batches in flight', async () => {
    const r = recorder<number>();
    const call = batcher(r.run, 3, 2);
    const outs = Array.from({ length: 8 }, (_, i) => call(i));
    await turn();
    expect(r.batches).toEqual([[0, 1, 2], [3, 4, 5]]);
    r.answer(0);
    await turn();
    expect(r.batches.at(-1)).toEqual([6, 7]);
    r.answer(1);
    r.answer(2);
    await expect(Promise.all(outs)).resolves.toEqual(Array.from({ length: 8 }, (_, i) => `out:${i}`));
  });

  it('fails every call of a batch that failed, and only those', async () => {
    const r = recorder<number>();
    const call = batcher(r.run, 2, 2);
    const outs = [1, 2, 3].map((x) => call(x).catch((err: Error) => err.message));
    await turn();
    r.pending[0]!.reject(new Error('lock timeout'));
    r.answer(1);
    await expect(Promise.all(outs)).resolves.toEqual(['lock timeout', 'lock timeout', 'out:3']);
  });

  it('fails only the call whose output is a Failed', async () => {
    const call = batcher(async (inputs: number[]) => inputs.map((x) => (x === 2 ? new Failed(new Error('bad row')) : `out:${x}`)), 50, 1);
    const outs = [1, 2, 3].map((x) => call(x).catch((err: Error) => err.message));
    await expect(Promise.all(outs)).resolves.toEqual(['out:1', 'bad row', 'out:3']);
  });
});
