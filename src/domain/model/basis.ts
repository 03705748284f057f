import { z } from 'zod';

export const PRICE_BASES = ['all_in', 'before_taxes', 'unknown'] as const;
/**
 * What a platform's stated total includes (issue 13). Prices are never converted from one basis to
 * another: the number is the platform's, and the basis says what it means.
 */
export const PriceBasis = z.enum(PRICE_BASES).meta({
  id: 'PriceBasis',
  description:
    'What totalPrice includes. all_in: the platform states it as the total a guest pays, taxes and every stated fee included. ' +
    'before_taxes: the platform states it before taxes (fees.taxes is then null and a taxes_not_included warning is given). ' +
    'unknown: the platform does not say whether taxes are included (a price_basis_unclear warning is given). ' +
    'Totals of different bases are not comparable.',
});
export type PriceBasis = z.infer<typeof PriceBasis>;

export const TOTAL_PRICE_DESCRIPTION = "The platform's stated total for the whole stay, on the basis given by `basis`; never converted from one basis to another.";
