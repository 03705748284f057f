import { roundToMinor } from '../../../domain/currency.js';
import type { Offer } from '../../../domain/model/price.js';
import type { PriceBasis } from '../../../domain/model/property.js';
import type { Stay } from '../../../domain/ports/platform.js';
import type { SandboxListing } from './property.js';
import { stayPrice } from './stay-price.js';
import { hash32, rng } from './random.js';
import type { Board } from '../../../domain/model/rates.js';

const OTAS: { ota: string; host: string }[] = [
  { ota: 'Booking.com', host: 'www.booking.com' },
  { ota: 'Expedia', host: 'www.expedia.com' },
  { ota: 'Hotels.com', host: 'www.hotels.com' },
  { ota: 'Agoda', host: 'www.agoda.com' },
  { ota: 'Trip.com', host: 'www.trip.com' },
  { ota: 'Priceline', host: 'www.priceline.com' },
  { ota: 'Vio.com', host: 'www.vio.com' },
  { ota: 'Official site', host: 'hotel.sandbox.example.com' },
];

/** Weighted draw of an offer's basis: 5 in 8 all-in, 2 in 8 before taxes, 1 in 8 unknown. */
const OFFER_BASES: readonly PriceBasis[] = ['all_in', 'all_in', 'all_in', 'all_in', 'all_in', 'before_taxes', 'before_taxes', 'unknown'];

const OTA_BOARDS: readonly (Board | null)[] = [null, 'room_only', 'breakfast', null, 'half_board'];

/**
 * An OTA's stated terms (issue 25): fixed per hotel and OTA, drawn apart from the prices so
 * these stay as they were; some OTAs state neither (null).
 */
function otaTerms(googleHotelId: string, ota: string): Pick<Offer, 'refundable' | 'board'> {
  const h = hash32(`terms:${googleHotelId}:${ota}`);
  return { refundable: h % 3 === 0 ? null : h % 3 === 1, board: OTA_BOARDS[(h >>> 4) % OTA_BOARDS.length]! };
}

/** OTA rates for one hotel and stay: each within a few percent of the hotel's own price. */
export function sandboxOffers(googleHotelId: string, listing: SandboxListing, stay: Stay, currency: string): Offer[] {
  const r = rng(`offers:${googleHotelId}:${stay.checkIn}:${stay.checkOut}`);
  const base = stayPrice('google', listing, stay, currency).totalPrice;
  return r.sample(OTAS, r.int(3, 7)).map(({ ota, host }) => ({
    ota,
    totalPrice: roundToMinor(base * r.float(0.9, 1.12, 3), currency),
    // Most OTAs state all-in totals; some quote before taxes, a few do not say (issue 13).
    basis: OFFER_BASES[Math.floor(r.next() * OFFER_BASES.length)]!,
    currency,
    url: `https://${host}/sandbox/${encodeURIComponent(googleHotelId)}?checkin=${stay.checkIn}&checkout=${stay.checkOut}`,
    ...otaTerms(googleHotelId, ota),
  }));
}
