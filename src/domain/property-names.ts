import type { Warning } from './model/common.js';
import type { Platform } from './platforms.js';

/**
 * How price-compare matches a property name (spec 4.6), live and in the sandbox alike: exactly,
 * as a person would read it. Never a merely similar name: spec 2.5, never another property's price.
 */

/** Names compared as a person would: case, accents, punctuation and "&"/"and" do not matter. */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A property that has the name asked for, as a client would tell it from the others. */
export interface NamedProperty {
  name: string;
  address: string | null;
  googleHotelId: string;
}

const describe = (p: NamedProperty) => `${p.name}${p.address ? `, ${p.address}` : ''} (googleHotelId ${p.googleHotelId})`;

/**
 * Several properties have the name: the answer is for `compared`, and this names the others with
 * their ids, so a client can send `googleHotelId` to choose. `rule` says why `compared` came first.
 */
export function ambiguousProperty(name: string, compared: NamedProperty, others: NamedProperty[], rule: string, platform: Platform): Warning {
  return {
    code: 'ambiguous_property',
    message: `"${name}" names ${others.length + 1} properties; compared ${describe(compared)}, ${rule}. Also: ${others.map(describe).join('; ')}. Send googleHotelId to choose.`,
    platform,
  };
}
