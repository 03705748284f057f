import { hash } from 'node:crypto';
import type { KeyEnv } from './plans.js';

/**
 * API keys (spec 5.2): `svc_test_` (sandbox) or `svc_live_` (live) plus 256 random bits in
 * base62. Only the SHA-256 of the whole key is stored; the key is shown once, at creation.
 */
export const KEY_PREFIX: Readonly<Record<KeyEnv, string>> = { sandbox: 'svc_test_', live: 'svc_live_' };
const KEY_SHAPE = /^svc_(test|live)_[0-9A-Za-z]{40,64}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function isWellFormedKey(token: string): boolean {
  return KEY_SHAPE.test(token);
}

/** Every authenticated call hashes its key: the one-shot hash costs a third of a Hash object's three calls. */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** What a list or a log may show of a key. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.sandbox.length + 6);
}

function base62(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(43, '0');
}

/** A new key from 32 random bytes the caller supplies (kept pure for tests). */
export function newApiKey(env: KeyEnv, random32: Uint8Array): { key: string; hash: string; prefix: string } {
  if (random32.length < 32) throw new Error('an API key needs 32 random bytes');
  const key = `${KEY_PREFIX[env]}${base62(random32.subarray(0, 32))}`;
  return { key, hash: hashKey(key), prefix: displayPrefix(key) };
}
