import { describe, expect, it } from 'vitest';
import { toolInputKey } from '../../src/facades/mcp/tool-input-key.js';

describe('toolInputKey', () => {
  it('is the JSON text of JSON arguments, so equal texts mean equal arguments', () => {
    const args = JSON.parse('{"location":"Lisbon","limit":20,"platforms":["airbnb"],"bbox":null,"dryRun":false,"__proto__":{"x":1}}');
    expect(toolInputKey(args)).toBe(JSON.stringify(args));
    expect(toolInputKey({})).toBe('{}');
    expect(toolInputKey({ a: 1, b: 2 })).not.toBe(toolInputKey({ b: 2, a: 1 }));
  });

  it('is null for what JSON text would blur: -0, dropped or converted values, bigints', () => {
    for (const value of [-0, undefined, NaN, Infinity, () => 1, Symbol('s'), 1n, new Date(0), new (class Point {})(), { toJSON: () => 'x' }]) {
      expect(toolInputKey({ limit: value }), String(typeof value)).toBeNull();
      expect(toolInputKey({ list: [1, value] }), String(typeof value)).toBeNull();
    }
    expect(toolInputKey({ list: [1, , 2] })).toBeNull(); // a hole reads as null in JSON
    expect(toolInputKey(-0)).toBeNull();
    expect(toolInputKey({ limit: 0 })).toBe('{"limit":0}');
  });
});
