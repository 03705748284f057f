import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** Issue 16 item 5 over real HTTP: one item per home, the others in alsoOn; dedupe=false opts out. */
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await app.newKey('sandbox')).key;
});
afterAll(() => app.close());

type Item = { id: string; platform: string; alsoOn?: { platform: string; platformListingId: string; price: number | null }[] };
type Body = { data: Item[]; meta: { deduplicated?: number } };

describe('search dedupe', () => {
  it('folds the same home on several platforms into one item, counted in meta, unless dedupe=false', async () => {
    const q = '/v1/search?location=Lisbon&platforms=airbnb,booking,vrbo&limit=100&checkIn=2031-05-01&checkOut=2031-05-03';
    const folded = (await (await app.get(q, key)).json()) as Body;
    const linked = folded.data.filter((i) => i.alsoOn?.length);
    expect(folded.meta.deduplicated).toBeGreaterThan(0);
    expect(linked.reduce((n, i) => n + i.alsoOn!.length, 0)).toBe(folded.meta.deduplicated);
    expect(linked.every((i) => i.alsoOn!.every((o) => o.platform !== i.platform && typeof o.price === 'number'))).toBe(true);

    const plain = (await (await app.get(`${q}&dedupe=false`, key)).json()) as Body;
    expect(plain.meta.deduplicated).toBeUndefined();
    expect(plain.data.some((i) => i.alsoOn)).toBe(false);
    expect(plain.data.length).toBe(folded.data.length + folded.meta.deduplicated!);
    const folded_ids = new Set(linked.flatMap((i) => i.alsoOn!.map((o) => `stays_${o.platform}_${o.platformListingId}`)));
    expect(plain.data.filter((i) => folded_ids.has(i.id))).toHaveLength(folded.meta.deduplicated!);
  });
});
