import { roundToMinor } from '../../../domain/currency.js';
import type { Offer } from '../../../domain/model/price.js';
import type { Stay } from '../../../domain/ports.js';
import type { SandboxListing } from './property.js';
import { stayPrice } from './stay-price.js';
import { rng } from './random.js';

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

/** OTA rates for one hotel and stay: each within a few percent of the hotel's own price. */
export function sandboxOffers(googleHotelId: string, listing: SandboxListing, stay: Stay, currency: string): Offer[] {
  const r = rng(`offers:${googleHotelId}:${stay.checkIn}:${stay.checkOut}`);
  const base = stayPrice('google', listing, stay, currency).totalPrice;
  return r.sample(OTAS, r.int(3, 7)).map(({ ota, host }) => ({
    ota,
    totalPrice: roundToMinor(base * r.float(0.9, 1.12, 3), currency),
    currency,
    url: `https://${host}/sandbox/${encodeURIComponent(googleHotelId)}?checkin=${stay.checkIn}&checkout=${stay.checkOut}`,
  }));
}
