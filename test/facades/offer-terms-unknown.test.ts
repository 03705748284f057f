import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listingId } from '../../src/adapters/platforms/sandbox/ids.js';
import { addDays } from '../../src/domain/dates.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Issue 34 item 5: every offer with a term the platform does not state (null) carries the
 * offer_terms_unknown warning the schema promises, on /price, a dated listing and
 * /price-compare; an answer whose offers state every term has none.
 */
const checkIn = addDays(new Date().toISOString().slice(0, 10), 50);
const stay = `checkIn=${checkIn}&checkOut=${addDays(checkIn, 3)}`;
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
});
// A key per test: each walks a catalogue within a sandbox key's 30 requests a minute.
beforeEach(async () => {
  ({ key } = await app.newKey('sandbox'));
});
afterAll(() => app.close());

type Warning = { code: string; message: string; platform?: string };
type Terms = { roomName?: string | null; ota?: string; refundable: boolean | null; board: string | null; payment?: string | null };
async function ok(path: string): Promise<{ data: Record<string, unknown>; meta: { warnings: Warning[] } }> {
  const res = await app.get(path, key);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json() as never;
}
const unknownTerms = (warnings: Warning[]) => warnings.filter((w) => w.code === 'offer_terms_unknown');
const hasNull = (o: Terms) => o.refundable === null || o.board === null || o.payment === null;

describe('offer_terms_unknown', () => {
  it('a booking price whose "Full board" offer leaves refundable null says so; one whose offers state every term does not', async () => {
    let warned = 0;
    let quiet = 0;
    let fullBoards = 0;
    for (let serial = 1; serial <= 14; serial++) {
      const id = listingId('booking', 0, serial);
      const body = await ok(`/v1/price?platform=booking&listingId=${id}&${stay}`);
      const offers = body.data.offers as Terms[];
      const open = offers.filter(hasNull);
      const said = unknownTerms(body.meta.warnings);
      if (open.length === 0) {
        expect(said).toEqual([]);
        quiet++;
        continue;
      }
      expect(said).toEqual([expect.objectContaining({ platform: 'booking', message: expect.stringContaining(`for ${open.length} of ${offers.length} offers`) })]);
      const fullBoard = offers.find((o) => o.roomName?.endsWith('Full board'));
      if (fullBoard) expect([fullBoard.refundable, said[0]!.message, fullBoards++]).toEqual([null, expect.stringMatching(/does not state refundable/), expect.any(Number)]);
      // The same stay's offers embedded in the dated listing say it too.
      if (warned === 0) expect(unknownTerms((await ok(`/v1/listing/booking/${id}?${stay}`)).meta.warnings)).toEqual(said);
      warned++;
    }
    expect([warned > 0, quiet > 0, fullBoards > 0]).toEqual([true, true, true]);
  });

  it('a price-compare offer whose board or refundable is null carries the warning (a "Partner rate" with board null too)', async () => {
    let warned = 0;
    for (let serial = 1; serial <= 8; serial++) {
      const body = await ok(`/v1/price-compare?googleHotelId=${listingId('google', 0, serial)}&${stay}`);
      const offers = [...(body.data.offers as Terms[]), ...(body.data.otherOffers as Terms[])];
      const open = offers.filter(hasNull);
      const said = unknownTerms(body.meta.warnings);
      expect(said).toHaveLength(open.length ? 1 : 0);
      if (open.length) expect(said[0]!.message).toContain(`for ${open.length} of ${offers.length} offers`);
      warned += said.length;
    }
    expect(warned).toBeGreaterThan(0);
    let partner = false;
    for (let serial = 1; serial <= 15 && !partner; serial++) {
      const body = await ok(`/v1/price?platform=google&listingId=${listingId('google', 0, serial)}&${stay}`);
      const rate = (body.data.offers as Terms[]).find((o) => o.roomName?.endsWith('Partner rate'));
      if (!rate) continue;
      partner = true;
      expect(rate.board).toBeNull();
      expect(unknownTerms(body.meta.warnings)).toEqual([expect.objectContaining({ platform: 'google', message: expect.stringMatching(/does not state (refundable, )?board/) })]);
    }
    expect(partner).toBe(true);
  });
});
