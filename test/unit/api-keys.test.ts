import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KEY_PREFIX, displayPrefix, hashKey, isWellFormedKey, newApiKey } from '../../src/domain/accounts/api-keys.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function bytes(fill: (i: number) => number, n = 32): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => fill(i));
}

/** Reference base62 decoding, to check the encoding is the big-endian number of the 32 bytes. */
function decodeBase62(s: string): bigint {
  let n = 0n;
  for (const ch of s) n = n * 62n + BigInt(BASE62.indexOf(ch));
  return n;
}

describe('newApiKey', () => {
  it('prefixes sandbox keys svc_test_ and live keys svc_live_, followed by 43 base62 characters', () => {
    const random = randomBytes(32);
    const sandbox = newApiKey('sandbox', random);
    const live = newApiKey('live', random);
    expect(sandbox.key).toMatch(/^svc_test_[0-9A-Za-z]{43}$/);
    expect(live.key).toMatch(/^svc_live_[0-9A-Za-z]{43}$/);
    expect(sandbox.key.slice(9)).toBe(live.key.slice(9));
    expect(KEY_PREFIX).toEqual({ sandbox: 'svc_test_', live: 'svc_live_' });
  });

  it('encodes the 32 bytes as a big-endian base62 number, zero-padded to 43 characters', () => {
    expect(newApiKey('live', bytes(() => 0)).key).toBe(`svc_live_${'0'.repeat(43)}`);
    expect(newApiKey('live', bytes((i) => (i === 31 ? 1 : 0))).key).toBe(`svc_live_${'0'.repeat(42)}1`);
    expect(newApiKey('live', bytes((i) => (i === 31 ? 62 : 0))).key).toBe(`svc_live_${'0'.repeat(41)}10`);
    expect(newApiKey('live', bytes((i) => (i === 31 ? 61 : 0))).key).toBe(`svc_live_${'0'.repeat(42)}z`);
    const max = newApiKey('live', bytes(() => 255)).key.slice(9);
    expect(max).toHaveLength(43);
    expect(decodeBase62(max)).toBe(2n ** 256n - 1n);
    for (let i = 0; i < 50; i++) {
      const random = randomBytes(32);
      expect(decodeBase62(newApiKey('sandbox', random).key.slice(9))).toBe(BigInt(`0x${random.toString('hex')}`));
    }
  });

  it('carries at least 128 bits: 43 base62 characters hold 256 bits, and distinct inputs give distinct keys', () => {
    expect(43 * Math.log2(62)).toBeGreaterThanOrEqual(256);
    const keys = new Set<string>();
    for (let i = 0; i < 2000; i++) keys.add(newApiKey('live', randomBytes(32)).key);
    expect(keys.size).toBe(2000);
    // Changing one bit of the random input changes the key.
    const a = bytes((i) => i);
    const b = bytes((i) => (i === 0 ? 1 : i));
    expect(newApiKey('live', a).key).not.toBe(newApiKey('live', b).key);
  });

  it('uses only the first 32 bytes, refuses fewer, and is pure', () => {
    const random = randomBytes(40);
    expect(newApiKey('live', random).key).toBe(newApiKey('live', random.subarray(0, 32)).key);
    expect(newApiKey('live', random)).toEqual(newApiKey('live', random));
    expect(() => newApiKey('live', randomBytes(31))).toThrow(/32 random bytes/);
    expect(() => newApiKey('sandbox', new Uint8Array(0))).toThrow();
  });

  it('returns the SHA-256 of the whole key and a short display prefix', () => {
    const { key, hash, prefix } = newApiKey('sandbox', randomBytes(32));
    expect(hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(prefix).toBe(key.slice(0, 15));
    expect(prefix).toMatch(/^svc_test_[0-9A-Za-z]{6}$/);
    expect(displayPrefix(key)).toBe(prefix);
    expect(isWellFormedKey(key)).toBe(true);
  });
});

describe('hashKey', () => {
  it('is lowercase SHA-256 hex of the exact string', () => {
    expect(hashKey('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const k = `svc_live_${'a'.repeat(43)}`;
    expect(hashKey(k)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(k)).not.toBe(hashKey(`${k} `));
    expect(hashKey(k)).not.toBe(hashKey(k.toUpperCase()));
  });
});

describe('isWellFormedKey', () => {
  it('accepts both prefixes with 40 to 64 base62 characters', () => {
    for (const n of [40, 43, 64]) {
      expect(isWellFormedKey(`svc_test_${'A'.repeat(n)}`)).toBe(true);
      expect(isWellFormedKey(`svc_live_${'z9'.repeat(n / 2)}${n % 2 ? 'q' : ''}`)).toBe(true);
    }
  });

  it.each([
    '', 'svc_test_', `svc_test_${'A'.repeat(39)}`, `svc_test_${'A'.repeat(65)}`, `svc_prod_${'A'.repeat(43)}`,
    `SVC_TEST_${'A'.repeat(43)}`, `svc_test${'A'.repeat(43)}`, `svc-test-${'A'.repeat(43)}`, `svc_test_${'A'.repeat(42)}-`,
    `svc_test_${'A'.repeat(42)}_`, `svc_test_${'A'.repeat(42)}=`, `svc_test_${'A'.repeat(43)}\n`, ` svc_test_${'A'.repeat(43)}`,
    `svc_test_${'A'.repeat(43)} `, `Bearer svc_test_${'A'.repeat(43)}`, `svc_test_${'A'.repeat(42)}é`, `svc_live_svc_test_${'A'.repeat(40)}`,
  ])('refuses %j', (token) => {
    expect(isWellFormedKey(token)).toBe(false);
  });
});
