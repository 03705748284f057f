import { describe, expect, it } from 'vitest';
import { bookingOffers } from '../../src/adapters/platforms/booking/parse-offers.js';
import { googleOffers } from '../../src/adapters/platforms/google/parse-rooms.js';
import { remarkTerms } from '../../src/adapters/platforms/google/rates.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import type { StayPrice } from '../../src/domain/model/property.js';
import { boardOf } from '../../src/domain/rates/board-words.js';
import { refundableOf } from '../../src/domain/rates/refund-words.js';

/**
 * Issue 34 item 6: rate names that state their terms. The payloads are shaped like
 * serpapi-google_hotels-property-details-london.json (`featured_prices[].rooms[]`) and
 * graphql-searchresults-results-array-malta-usd.json (`blocks[]`), with the names hotels give
 * their rates on their own sites.
 */
const rate = (usd: number) => ({ lowest: `$${usd}`, extracted_lowest: usd, before_taxes_fees: `$${usd - 30}`, extracted_before_taxes_fees: usd - 30 });
const room = (name: string, usd: number) => ({ name, link: 'https://www.google.com/aclk?sa=l', num_guests: 2, rate_per_night: rate(usd), total_rate: rate(usd) });
const details = (...rooms: ReturnType<typeof room>[]) => ({
  featured_prices: [{ source: 'Hotel Example Lisboa', official: true, remarks: [], rooms, num_guests: 2, rate_per_night: rate(200), total_rate: rate(200) }],
});

describe('refund terms a rate name states', () => {
  it('reads explicit statements in several languages, and nothing else', () => {
    const stated: [string, boolean | null][] = [
      ['Deluxe King - Non-Refundable', false],
      ['Deluxe King - Nonrefundable Advance Purchase', false],
      ['Club Room - Free Cancellation', true],
      ['Superior Double - Fully refundable', true],
      ['Doppelzimmer - Nicht erstattbar', false],
      ['Doppelzimmer - Kostenlose Stornierung', true],
      ['Chambre Double - Non remboursable', false],
      ['Chambre Double - Annulation gratuite', true],
      ['Habitación Doble - No reembolsable', false],
      ['Habitación Doble - Cancelación gratuita', true],
      ['Camera Doppia - Non rimborsabile', false],
      ['Quarto Duplo - Cancelamento grátis', true],
      ['Deluxe Double - Book Early & Save', null],
      ['Deluxe Double - The Flexible Rate', null],
      ['Standard Room - No free cancellation', null],
      ['Partially refundable rate', null],
      ['Not fully refundable', null],
      ['Free cancellation not available', null],
      ['Free cancellation unavailable', null],
      ['Free cancellation before 1 Jan, then non-refundable', null],
      ['Non-refundable deposit, free cancellation', null],
      ['Standard Room - No refund if cancelled within 48 hours', null],
      ['Chambre Double - Sans annulation gratuite', null],
    ];
    expect(stated.map(([name]) => refundableOf(name))).toEqual(stated.map(([, r]) => r));
  });

  it('a name that names breakfast to deny it states no breakfast board', () => {
    expect(['Standard Room - Breakfast not included', 'Standard Room without breakfast', 'Room only - no breakfast', 'Deluxe - Breakfast included'].map(boardOf)).toEqual([null, null, 'room_only', 'breakfast']);
  });

  it('google room rates: refundable and board from their names; the warning names only the terms still null', () => {
    const w = new FieldWarnings('google');
    const offers = googleOffers(details(room('Deluxe King - Non-Refundable', 201), room('Deluxe King - Free Cancellation - Breakfast included', 246), room('Deluxe King - Book Early & Save', 190)), 'USD', 1, 2, w);
    expect(offers.map((o) => [o.roomName, o.refundable, o.board])).toEqual([
      ['Deluxe King - Book Early & Save', null, null],
      ['Deluxe King - Non-Refundable', false, null],
      ['Deluxe King - Free Cancellation - Breakfast included', true, 'breakfast'],
    ]);
    expect(w.list).toEqual([{ code: 'offer_terms_unknown', message: 'google does not state board, refundable, payment for some offers; those terms are null.', platform: 'google' }]);

    // Every name states both terms: the warning no longer claims google does not state them.
    const stated = new FieldWarnings('google');
    googleOffers(details(room('Deluxe King - Non-Refundable - Room only', 201), room('Deluxe King - Free Cancellation - Breakfast included', 246)), 'USD', 1, 2, stated);
    expect(stated.list.map((x) => x.message)).toEqual(['google does not state payment for some offers; those terms are null.']);
  });

  it('google price-compare remarks: the same words in other languages', () => {
    expect(remarkTerms({ remarks: ['Annulation gratuite', 'Petit-déjeuner inclus'] })).toEqual({ refundable: true, board: null });
    expect(remarkTerms({ remarks: ['Nicht erstattbar'] })).toEqual({ refundable: false, board: null });
  });

  it('booking room blocks: a room name stating non-refundable makes its blocks non-refundable where they state nothing else', () => {
    const item = {
      matchingUnitConfigurations: { commonConfiguration: { unitTypeNames: [{ translation: 'Double Room - Non-refundable' }] } },
      policies: { showNoPrepayment: false, showFreeCancellation: false },
      mealPlanIncluded: null,
      blocks: [
        { blockId: { mealPlanId: 0 }, finalPrice: { amount: 339.86, currency: 'USD' }, freeCancellationUntil: null },
        { blockId: { mealPlanId: 0 }, finalPrice: { amount: 361.2, currency: 'USD' }, freeCancellationUntil: '2031-06-08' },
      ],
    };
    const stay: StayPrice = { currency: 'USD', basis: 'all_in', nightlyPrice: 48.55, totalPrice: 339.86, nights: 7, fees: { cleaning: null, service: null, taxes: null, items: [] } };
    const { offers, warnings } = bookingOffers(item, stay);
    // A block that states free cancellation until a date keeps what it states.
    expect(offers.map((o) => o.refundable)).toEqual([false, true]);
    expect(warnings.map((x) => x.message)).toEqual(['booking does not state board, payment for some offers; those terms are null.']);
  });
});
