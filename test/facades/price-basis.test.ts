import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** Issue 13 item 1 over REST with a sandbox key: every basis, its warning, and the figure each rule uses. */
const start = addDays(new Date().toISOString().slice(0, 10), 40);
const end = addDays(start, 3);
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await app.newKey('sandbox')).key;
});
afterAll(() => app.close());

interface Item { platform: string; platformListingId: string; price: { basis: string; totalPrice: number; fees: { taxes: number | null } } | null }
interface Body<T> { data: T; meta: { warnings: { code: string }[] } }
const get = async <T>(path: string): Promise<Body<T>> => {
  const res = await app.get(path, key);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Body<T>;
};

describe('price basis over REST (sandbox)', () => {
  it('a price sort over mixed bases orders by the stated totals and says so', async () => {
    const page = await get<Item[]>(`/v1/search?location=Lisbon&checkIn=${start}&checkOut=${end}&sort=price_asc&limit=100`);
    const totals = page.data.map((p) => p.price!.totalPrice);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    const bases = new Set(page.data.map((p) => p.price!.basis));
    expect(bases.size).toBeGreaterThan(1);
    const codes = page.meta.warnings.map((w) => w.code);
    expect(codes).toContain('price_basis_mixed');
    if (bases.has('before_taxes')) expect(codes).toContain('taxes_not_included');
    for (const p of page.data) if (p.price!.basis !== 'all_in') expect(p.price!.fees.taxes).toBeNull();
  });

  it('a price quote states its basis, with the warning of a basis that is not all-in', async () => {
    const page = await get<Item[]>(`/v1/search?location=Lisbon&checkIn=${start}&checkOut=${end}&platforms=booking&limit=100`);
    const before = page.data.find((p) => p.price!.basis === 'before_taxes')!;
    const quote = await get<{ basis: string; totalPrice: number }>(`/v1/price?platform=booking&listingId=${before.platformListingId}&checkIn=${start}&checkOut=${end}`);
    expect(quote.data).toMatchObject({ basis: 'before_taxes', totalPrice: before.price!.totalPrice });
    expect(quote.meta.warnings.map((w) => w.code)).toContain('taxes_not_included');
  });

  it('price-compare: min and median over the most common basis, the others apart', async () => {
    let mixed = 0;
    for (let i = 0; i < 8; i++) {
      const c = await get<{ basis: string; min: number; offers: { basis: string; totalPrice: number }[]; otherOffers: { basis: string }[] }>(
        `/v1/price-compare?googleHotelId=ChkIbasis${i}test&checkIn=${start}&checkOut=${end}`,
      );
      expect(c.data.offers.every((o) => o.basis === c.data.basis)).toBe(true);
      expect(c.data.min).toBe(Math.min(...c.data.offers.map((o) => o.totalPrice)));
      expect(c.data.otherOffers.every((o) => o.basis !== c.data.basis)).toBe(true);
      expect(c.data.offers.length).toBeGreaterThanOrEqual(c.data.otherOffers.filter((o) => o.basis === c.data.otherOffers[0]?.basis).length);
      if (c.data.otherOffers.length) {
        mixed++;
        expect(c.meta.warnings.map((w) => w.code)).toContain('offers_basis_mixed');
      }
    }
    expect(mixed).toBeGreaterThan(0);
  });

  it('the OpenAPI document carries the rule: the basis enum and what each figure means', async () => {
    const doc = await (await app.get('/v1/openapi.json', key)).text();
    expect(doc).toContain('before_taxes');
    expect(doc).toMatch(/taxes_not_included/);
    expect(doc).toMatch(/price_basis_mixed/);
    expect(doc).toMatch(/otherOffers/);
  });
});
