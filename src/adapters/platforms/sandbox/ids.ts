import { CITIES, FIRST_CITIES } from './gazetteer.js';
import { hash32 } from './random.js';

/**
 * Sandbox listing ids carry their city and serial, so a listing found by search looks the same
 * when fetched by id. Ids that do not decode still get a listing, placed by their hash.
 */
type SandboxPlatform = 'airbnb' | 'booking' | 'vrbo' | 'google';

const NUMERIC_BASE: Record<Exclude<SandboxPlatform, 'google'>, { base: number; stride: number }> = {
  airbnb: { base: 40_000_000, stride: 100_000 },
  booking: { base: 2_000_000, stride: 10_000 },
  vrbo: { base: 6_000_000, stride: 10_000 },
};

export const LISTINGS_PER_CITY: Record<SandboxPlatform, number> = { airbnb: 70, booking: 60, vrbo: 45, google: 50 };

export function listingId(platform: SandboxPlatform, city: number, serial: number): string {
  if (platform === 'google') return `ChkI${Buffer.from(`g${city}.${serial}`).toString('base64url')}`;
  const { base, stride } = NUMERIC_BASE[platform];
  return String(base + city * stride + serial);
}

export interface Placement {
  city: number;
  serial: number;
}

export function placeListing(platform: SandboxPlatform, id: string): Placement {
  const decoded = decode(platform, id);
  if (decoded && decoded.city < CITIES.length && decoded.serial >= 1 && decoded.serial <= LISTINGS_PER_CITY[platform]) return decoded;
  const h = hash32(`${platform}:${id}`);
  return { city: h % FIRST_CITIES, serial: 1 + ((h >>> 8) % LISTINGS_PER_CITY[platform]) };
}

function decode(platform: SandboxPlatform, id: string): Placement | null {
  if (platform === 'google') {
    if (!id.startsWith('ChkI')) return null;
    const m = /^g(\d+)\.(\d+)$/.exec(Buffer.from(id.slice(4), 'base64url').toString('utf8'));
    return m ? { city: Number(m[1]), serial: Number(m[2]) } : null;
  }
  if (!/^\d{1,12}$/.test(id)) return null;
  const { base, stride } = NUMERIC_BASE[platform];
  const n = Number(id) - base;
  if (n < 0) return null;
  return { city: Math.floor(n / stride), serial: n % stride };
}

export function isSandboxPlatform(p: string): p is SandboxPlatform {
  return p === 'airbnb' || p === 'booking' || p === 'vrbo' || p === 'google';
}
export type { SandboxPlatform };
