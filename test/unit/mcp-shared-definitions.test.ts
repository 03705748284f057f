import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { shareRepeatedSchemas, type JsonSchema } from '../../src/facades/mcp/shared-definitions.js';

/** shared-definitions.ts: repeated subschemas become `$defs` entries, and what validates does not change. */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const nullableDate = { anyOf: [{ type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, { type: 'null' }] };
const nullableNumber = { anyOf: [{ type: 'number' }, { type: 'null' }] };
const money = { type: 'object', properties: { amount: { type: 'number' }, currency: { type: 'string', enum: ['EUR', 'USD'] } }, required: ['amount', 'currency'], additionalProperties: false };
const schema: JsonSchema = {
  type: 'object',
  properties: {
    from: nullableDate,
    to: nullableDate,
    paidOn: nullableDate,
    lat: nullableNumber,
    lng: nullableNumber,
    total: money,
    offers: { type: 'array', items: { type: 'object', properties: { price: money, fee: { $ref: '#/$defs/Fee' } }, additionalProperties: false } },
    fees: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    once: { type: 'string', minLength: 3 },
  },
  required: ['lat', 'total'],
  additionalProperties: false,
  $defs: { Fee: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
};

const instances = [
  { lat: 1, total: { amount: 2, currency: 'EUR' } },
  { lat: null, lng: 3, from: '2031-05-01', to: null, total: { amount: 2, currency: 'USD' }, offers: [{ price: { amount: 1, currency: 'EUR' }, fee: { name: 'x' } }], fees: [{ name: 'city' }], once: 'abc' },
  { lat: 'north', total: { amount: 2, currency: 'EUR' } },
  { lat: 1, total: { amount: 2, currency: 'GBP' } },
  { lat: 1, total: { amount: 2, currency: 'EUR' }, offers: [{ price: { amount: 1 } }] },
  { lat: 1, total: { amount: 2, currency: 'EUR' }, fees: [{}] },
  { lat: 1, total: { amount: 2, currency: 'EUR' }, once: 'ab' },
  { lat: 1, total: { amount: 2, currency: 'EUR' }, paidOn: '1 May' },
];

describe('shareRepeatedSchemas', () => {
  const shared = shareRepeatedSchemas(schema);
  const properties = shared.properties as Record<string, JsonSchema>;
  const defs = shared.$defs as Record<string, JsonSchema>;

  it('states each repeated shape once in $defs, named for what it is or where it is first used', () => {
    expect(defs.DateOrNull).toEqual(nullableDate);
    expect(defs.Total).toEqual(money);
    expect([properties.from, properties.to, properties.paidOn]).toEqual(Array(3).fill({ $ref: '#/$defs/DateOrNull' }));
    expect(properties.total).toEqual({ $ref: '#/$defs/Total' });
    expect(JSON.stringify(shared).length).toBeLessThan(JSON.stringify(schema).length);
  });

  it('refers to an existing definition its inline copy equals, and leaves where it is a shape used once or one whose references would cost as much', () => {
    expect(properties.fees!.items as JsonSchema).toEqual({ $ref: '#/$defs/Fee' });
    expect(properties.once).toEqual({ type: 'string', minLength: 3 });
    expect([properties.lat, properties.lng]).toEqual([nullableNumber, nullableNumber]);
    expect(Object.keys(defs).sort()).toEqual(['DateOrNull', 'Fee', 'Total']);
  });

  it('validates exactly what the original validates, under strict Ajv', () => {
    const ajv = addFormats(new Ajv2020({ strict: true }));
    const before = ajv.compile(schema);
    const after = ajv.compile(shared);
    expect(instances.map((i) => after(i))).toEqual(instances.map((i) => before(i)));
    expect(instances.map((i) => after(i))).toEqual([true, true, false, false, false, false, false, false]);
  });

  it('leaves its argument as it was', () => {
    expect(schema.properties).toHaveProperty('from', nullableDate);
  });
});
