import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, queryHash, rememberedQueryHash, sha256Text, stableJson, StableText } from '../../src/domain/operations/cursor.js';
import { cacheSlot } from '../../src/domain/caching/cache-policy.js';
import { ServiceError } from '../../src/domain/errors.js';

const SECRET = 'unit-test-secret';
const HASH = queryHash({ location: 'Lisbon', sort: 'recommended', platforms: ['airbnb', 'booking'] });

function b64(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

/** A wire object signed exactly as the module signs it, so only the field under test is wrong. */
function signedWire(q: string, p: unknown, secret = SECRET): string {
  const s = createHmac('sha256', secret).update(`1|${q}|${stableJson(p)}`).digest('base64url').slice(0, 22);
  return b64({ v: 1, q, p, s });
}

function invalidCursor(fn: () => unknown, param = 'cursor'): ServiceError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    const e = err as ServiceError;
    expect(e.code).toBe('invalid_cursor');
    expect(e.status).toBe(400);
    expect(e.retryable).toBe(false);
    expect(e.param).toBe(param);
    return e;
  }
  throw new Error('expected invalid_cursor, nothing was thrown');
}

describe('stableJson and queryHash', () => {
  it('sorts object keys at every depth', () => {
    expect(stableJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('is independent of key order and drops undefined values', () => {
    const a = { location: 'Lisbon', checkIn: '2027-05-01', platforms: ['airbnb', 'vrbo'], extra: undefined };
    const b = { platforms: ['airbnb', 'vrbo'], checkIn: '2027-05-01', location: 'Lisbon' };
    expect(stableJson(a)).toBe(stableJson(b));
    expect(queryHash(a)).toBe(queryHash(b));
  });

  it('keeps array order and null values significant', () => {
    expect(queryHash({ p: ['airbnb', 'vrbo'] })).not.toBe(queryHash({ p: ['vrbo', 'airbnb'] }));
    expect(stableJson({ a: null })).toBe('{"a":null}');
    expect(stableJson({ a: null })).not.toBe(stableJson({}));
    expect(stableJson(undefined)).toBe('null');
    expect(stableJson([undefined, 1])).toBe('[null,1]');
  });

  it('queryHash is a 16-character base64url digest that changes with the query', () => {
    expect(HASH).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(queryHash({ location: 'Porto' })).not.toBe(queryHash({ location: 'Lisbon' }));
    expect(queryHash({ limit: 1 })).not.toBe(queryHash({ limit: '1' }));
  });
});

describe('encodeCursor / decodeCursor', () => {
  it('round-trips positions', () => {
    const positions = { airbnb: 7, booking: 0, vrbo: 100_000, google: 13 };
    const cursor = encodeCursor(SECRET, HASH, { positions });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(SECRET, HASH, cursor)).toEqual({ positions });
    expect(decodeCursor(SECRET, HASH, encodeCursor(SECRET, HASH, { positions: { offset: 40 } }))).toEqual({ positions: { offset: 40 } });
  });

  it('is deterministic and differs between states', () => {
    const a = encodeCursor(SECRET, HASH, { positions: { airbnb: 1 } });
    expect(encodeCursor(SECRET, HASH, { positions: { airbnb: 1 } })).toBe(a);
    expect(encodeCursor(SECRET, HASH, { positions: { airbnb: 2 } })).not.toBe(a);
  });

  it('accepts a hand-signed wire equal to the module format (the helper matches the code)', () => {
    expect(decodeCursor(SECRET, HASH, signedWire(HASH, { airbnb: 3 }))).toEqual({ positions: { airbnb: 3 } });
  });

  it('refuses a cursor issued for another query', () => {
    const cursor = encodeCursor(SECRET, queryHash({ location: 'Porto' }), { positions: { airbnb: 20 } });
    const e = invalidCursor(() => decodeCursor(SECRET, HASH, cursor));
    expect(e.message).toContain('issued for another query');
  });

  it('refuses a cursor signed with another secret', () => {
    const cursor = encodeCursor('other-secret', HASH, { positions: { airbnb: 20 } });
    expect(invalidCursor(() => decodeCursor(SECRET, HASH, cursor)).message).toContain('tampered');
  });

  it('refuses tampered positions, query hash or signature', () => {
    const cursor = encodeCursor(SECRET, HASH, { positions: { airbnb: 20, vrbo: 5 } });
    const wire = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { v: 1; q: string; p: Record<string, number>; s: string };
    const variants = [
      { ...wire, p: { airbnb: 21, vrbo: 5 } },
      { ...wire, p: { airbnb: 20 } },
      { ...wire, p: { airbnb: 20, vrbo: 5, booking: 0 } },
      { ...wire, q: queryHash({ other: true }) },
      { ...wire, s: wire.s.slice(0, -1) + (wire.s.endsWith('A') ? 'B' : 'A') },
      { ...wire, s: wire.s.slice(0, 21) },
      { ...wire, s: `${wire.s}A` },
      { ...wire, s: '' },
    ];
    for (const v of variants) {
      invalidCursor(() => decodeCursor(SECRET, HASH, b64(v)));
    }
  });

  it('refuses garbage, wrong versions and wrong field types', () => {
    const garbage = [
      '', '!!!', 'abc def', 'a.b', 'abc==', b64('not json'), b64('null'), b64('42'), b64('"string"'), b64('[]'),
      b64({ v: 2, q: HASH, p: {}, s: 'x' }), b64({ q: HASH, p: {}, s: 'x' }), b64({ v: 1, q: 5, p: {}, s: 'x' }),
      b64({ v: 1, q: HASH, p: {}, s: 5 }), b64({ v: 1, q: HASH, p: [], s: 'x' }), b64({ v: 1, q: HASH, p: null, s: 'x' }),
      b64({ v: '1', q: HASH, p: {}, s: 'x' }), Buffer.from([0xff, 0xfe, 0x00]).toString('base64url'),
    ];
    for (const g of garbage) invalidCursor(() => decodeCursor(SECRET, HASH, g));
  });

  it('refuses non-integer, negative, unsafe or too-large positions even when validly signed', () => {
    const bad: unknown[] = [{ airbnb: 1.5 }, { airbnb: -1 }, { airbnb: 100_001 }, { airbnb: '3' }, { airbnb: null }, { airbnb: 1e21 }, { airbnb: true }, { airbnb: [1] }];
    for (const p of bad) {
      expect(invalidCursor(() => decodeCursor(SECRET, HASH, signedWire(HASH, p))).message).toContain('malformed');
    }
    expect(decodeCursor(SECRET, HASH, signedWire(HASH, { airbnb: 100_000 }))).toEqual({ positions: { airbnb: 100_000 } });
  });

  it('refuses cursors longer than 2048 characters before decoding them', () => {
    const long = signedWire(HASH, Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`source${i}`, i])));
    expect(long.length).toBeGreaterThan(2048);
    invalidCursor(() => decodeCursor(SECRET, HASH, long));
    invalidCursor(() => decodeCursor(SECRET, HASH, 'A'.repeat(2049)));
  });

  it('names the parameter it was given', () => {
    invalidCursor(() => decodeCursor(SECRET, HASH, 'garbage!', 'pageToken'), 'pageToken');
  });
});

describe('keys built from parts written once', () => {
  it('gives the same stable JSON and cache slot as the part written in place', () => {
    const query = { location: 'Lisbon', sort: 'recommended', amenities: ['pool', 'wifi'], minBedrooms: null, currency: 'EUR' };
    const inPlace = { platform: 'airbnb', query, offset: 20, count: 20 };
    const once = { platform: 'airbnb', query: new StableText(stableJson(query)), offset: 20, count: 20 };
    expect(stableJson(once)).toBe(stableJson(inPlace));
    expect(cacheSlot('sandbox', 'search', once)).toEqual(cacheSlot('sandbox', 'search', inPlace));
    expect(cacheSlot('live', 'search', once).key).not.toBe(cacheSlot('sandbox', 'search', once).key);
    expect(sha256Text('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });
});

describe('stableJson edge cases', () => {
  it('drops undefined members, writes undefined array items as null, and orders keys by code unit', () => {
    expect(stableJson({ b: undefined, a: [undefined, null, 'x'], é: 1, Z: 2, z: 3 })).toBe('{"Z":2,"a":[null,null,"x"],"z":3,"é":1}');
    expect(stableJson({ only: undefined })).toBe('{}');
    expect(stableJson([])).toBe('[]');
    expect(stableJson(undefined)).toBe('null');
  });
});

describe('rememberedQueryHash', () => {
  it('is the query hash, whether computed or remembered, and follows its key', () => {
    const a = { location: 'Lisbon', platforms: ['airbnb'] };
    const b = { location: 'Porto', platforms: ['airbnb'] };
    expect(rememberedQueryHash('k-a', a)).toBe(queryHash(a));
    expect(rememberedQueryHash('k-a', a)).toBe(queryHash(a));
    expect(rememberedQueryHash('k-b', b)).toBe(queryHash(b));
    expect(queryHash(b)).not.toBe(queryHash(a));
  });
});
