import { describe, expect, it } from 'vitest';
import { parseDisplayPrice } from '../../src/adapters/platforms/airbnb/parse.js';
import { stayPriceOf } from '../../src/adapters/platforms/booking/parse-price.js';
import { stayPrice as googleStayPrice } from '../../src/adapters/platforms/google/rates.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import { basisWarning, mostCommonBasis } from '../../src/domain/price-basis.js';

/** Issue 13 item 1: every price says what its total includes, and taxes not stated are null with a warning. */
const codes = (w: FieldWarnings) => w.list.map((x) => x.code);

/** An Airbnb StructuredDisplayPrice in the recorded shape, with the total labelled `totalLabel`. */
function airbnbCard(totalLabel: string, qualifier: string, taxes: boolean) {
  return {
    primaryLine: { price: '$1,095', qualifier },
    explanationData: {
      priceDetails: [
        { items: [{ description: '5 nights x $180.00', priceString: '$900.00' }, { description: 'Cleaning fee', priceString: '$60.00' }, { description: 'Airbnb service fee', priceString: '$134.10' }, ...(taxes ? [{ description: 'Taxes', priceString: '$72.00' }] : [])] },
        { items: [{ __typename: 'HighlightExplanationLineItem', description: totalLabel, priceString: taxes ? '$1,166.10' : '$1,094.10' }] },
      ],
    },
  };
}

describe('price basis', () => {
  it('airbnb: "Total before taxes" is before_taxes with taxes null and taxes_not_included', () => {
    const w = new FieldWarnings('airbnb');
    const price = parseDisplayPrice(airbnbCard('Total before taxes', 'total before taxes', false), { currency: 'USD', nights: 5 }, w, 'listing 1');
    expect(price).toMatchObject({ currency: 'USD', basis: 'before_taxes', nightlyPrice: 180, totalPrice: 1094.1, nights: 5, fees: { cleaning: 60, service: 134.1, taxes: null } });
    expect(codes(w)).toEqual(['taxes_not_included', 'fee_payment_unknown']);
  });

  it('airbnb: a plain "Total" with its taxes line is all_in; a before-taxes total that lists taxes is unclear', () => {
    const card = airbnbCard('Total', 'total', true);
    card.primaryLine.price = '$1,167';
    const w = new FieldWarnings('airbnb');
    expect(parseDisplayPrice(card, { currency: 'USD', nights: 5 }, w, 'x')).toMatchObject({ basis: 'all_in', totalPrice: 1166.1, fees: { taxes: 72 } });
    expect(codes(w)).toEqual(['fee_payment_unknown']);
    const odd = airbnbCard('Total before taxes', 'total', true);
    odd.primaryLine.price = '$1,167';
    const w2 = new FieldWarnings('airbnb');
    expect(parseDisplayPrice(odd, { currency: 'USD', nights: 5 }, w2, 'x')).toBeNull();
    expect(codes(w2)).toEqual(['price_basis_unclear']);
  });

  it('booking: display price plus the excluded charges is all_in; without the charge list it is unknown', () => {
    const item = (charges: unknown) => ({ priceDisplayInfoIrene: { displayPrice: { amountPerStay: { amountUnformatted: 300, currency: 'EUR' } }, excludedCharges: { excludeChargesList: charges } } });
    expect(stayPriceOf(item([]), 2, 'EUR', new FieldWarnings('booking'))?.basis).toBe('all_in');
    const w = new FieldWarnings('booking');
    expect(stayPriceOf(item(undefined), 2, 'EUR', w)).toMatchObject({ basis: 'unknown', totalPrice: 300, fees: { taxes: null } });
    expect(codes(w)).toEqual(['price_basis_unclear']);
  });

  it('google: a total beside its before-taxes figure is all_in (fees combined, said once); a bare total is unknown', () => {
    const w = new FieldWarnings('google');
    const allIn = googleStayPrice({ total_rate: { extracted_lowest: 1102, extracted_before_taxes_fees: 919 } }, 11, 'USD', w, 'a');
    googleStayPrice({ total_rate: { extracted_lowest: 500, extracted_before_taxes_fees: 450 } }, 2, 'USD', w, 'b');
    expect(allIn).toMatchObject({ basis: 'all_in', totalPrice: 1102, fees: { taxes: null } });
    expect(codes(w)).toEqual(['price_fees_combined', 'fee_payment_unknown']);
    const w2 = new FieldWarnings('google');
    expect(googleStayPrice({ total_rate: { extracted_lowest: 605 } }, 3, 'USD', w2, 'c')?.basis).toBe('unknown');
    expect(codes(w2)).toEqual(['price_basis_unclear']);
  });

  it('the most common basis wins, all_in first on a tie; warnings name the basis', () => {
    expect(mostCommonBasis([])).toBeNull();
    expect(mostCommonBasis([{ basis: 'before_taxes' }, { basis: 'before_taxes' }, { basis: 'all_in' }])).toBe('before_taxes');
    expect(mostCommonBasis([{ basis: 'unknown' }, { basis: 'all_in' }, { basis: 'before_taxes' }])).toBe('all_in');
    expect(mostCommonBasis([{ basis: 'unknown' }, { basis: 'before_taxes' }])).toBe('before_taxes');
    expect(basisWarning('all_in', 'booking', 'x')).toBeNull();
    expect(basisWarning('before_taxes', 'booking', 'x')?.code).toBe('taxes_not_included');
    expect(basisWarning('unknown', 'booking', 'x')?.code).toBe('price_basis_unclear');
  });
});
