import fc from 'fast-check';

/**
 * Request generation for the OpenAPI fuzz suite: every case is derived from the served OpenAPI
 * document (operations, parameters, their schemas, the POST body schema). A little domain
 * knowledge is added on top so that a good share of cases is fully valid and reaches the
 * procedures (sandbox city names and triggers, listing URL shapes, and the cross-field rules that
 * the document cannot express: date order, children vs childAges, one identification form).
 */

/** The subset of JSON Schema / OpenAPI 3.1 the generator reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  default?: unknown;
}

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> } | undefined>;
}

export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

export interface FuzzOperation {
  /** "GET /listing/{platform}/{id}" */
  key: string;
  method: 'GET' | 'POST';
  template: string;
  op: OpenApiOperation;
  params: OpenApiParameter[];
  body: JsonSchema | null;
}

export type AuthMode = 'pool' | 'pool-lowercase-scheme' | 'none' | 'not-a-key' | 'unknown-test' | 'unknown-live' | 'basic' | 'empty-bearer';

export interface FuzzCase {
  op: string;
  method: 'GET' | 'POST';
  /** Raw request target below the origin, ASCII only, sent verbatim. */
  path: string;
  body?: string;
  contentType?: string;
  auth: AuthMode;
  mode: 'valid' | 'mutate' | 'chaos';
}

/** Values learnt from the running app before generation (a real cursor, for instance). */
export interface Pools {
  cursors: string[];
}

export function operationsOf(doc: OpenApiDoc): FuzzOperation[] {
  const out: FuzzOperation[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const m = method.toUpperCase();
      if (m !== 'GET' && m !== 'POST') continue;
      out.push({
        key: `${m} ${template}`,
        method: m,
        template,
        op,
        params: (op.parameters ?? []).filter((p) => p.in === 'query' || p.in === 'path'),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return out;
}

export function resolve(doc: OpenApiDoc, schema: JsonSchema): JsonSchema {
  let s = schema;
  for (let i = 0; i < 10 && s.$ref; i++) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(s.$ref)?.[1];
    const target = name ? doc.components.schemas[name] : undefined;
    if (!target) throw new Error(`unresolvable $ref ${s.$ref}`);
    s = { ...target, ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) };
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Dates

const DAY = 86_400_000;
function isoDay(offsetDays: number): string {
  const now = new Date();
  const base = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(base + offsetDays * DAY).toISOString().slice(0, 10);
}
function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}
/** A date safely in the future in every time zone. */
const futureDate = fc.integer({ min: 2, max: 500 }).map(isoDay);

// ---------------------------------------------------------------------------------------------
// Domain pools (names from the README: sandbox cities and triggers, listing URL shapes)

const TRIGGERS = ['sandbox:async', 'sandbox:partial', 'sandbox:unavailable', 'sandbox-missing'];
const CITIES = ['Lisbon', 'Porto', 'Madrid', 'Paris', 'London', 'New York', 'Tokyo', 'Cape Town', 'lisbon', '  LISBON ', 'Atlantis', '38.7223,-9.1393', '40.4168,-3.7038', '91,200', 'São Paulo', '東京'];
const LISTING_IDS = ['40000012', '123', '1234567ha', 'pt/hotel-lisboa', 'ChkIabcdefgh12345678', 'a/b', 'x'.repeat(256), ...TRIGGERS];
const LISTING_URLS = [
  'https://www.airbnb.com/rooms/40000012',
  'https://airbnb.co.uk/rooms/plus/123/',
  'https://www.booking.com/hotel/pt/hotel-lisboa.en-gb.html',
  'https://www.vrbo.com/1234567ha',
  'https://www.google.com/travel/hotels/entity/ChkIabcdefgh12345678',
  'http://www.airbnb.com/rooms/1',
  'https://www.airbnb.com/rooms/abc',
  'https://evil.example/rooms/1',
  'https://www.airbnb.com.evil.example/rooms/1',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
];
const PLATFORM_URLS: Record<string, string> = {
  airbnb: 'https://www.airbnb.com/rooms/40000012',
  booking: 'https://www.booking.com/hotel/pt/hotel-lisboa.en-gb.html',
  vrbo: 'https://www.vrbo.com/1234567ha',
  google: 'https://www.google.com/travel/hotels/entity/ChkIabcdefgh12345678',
};
const HOTEL_NAMES = ['Hotel Lisboa', 'The Ritz', 'sandbox:async', 'sandbox:partial', 'sandbox:unavailable', 'sandbox-missing', 'Hôtel Ça Va'];

function domainStrings(name: string): string[] {
  switch (name) {
    case 'location':
      return [...CITIES, ...TRIGGERS];
    case 'listingId':
    case 'id':
      return [...LISTING_IDS, ...LISTING_URLS];
    case 'url':
      return LISTING_URLS;
    case 'name':
      return HOTEL_NAMES;
    case 'googleHotelId':
      return ['ChkIabcdefgh12345678', 'sandbox:unavailable', 'sandbox-missing'];
    case 'platform':
    case 'platforms':
      return ['airbnb', 'booking', 'vrbo', 'google'];
    case 'cursor':
      return [];
    case 'jobId':
      return ['job_01JAAAAAAAAAAAAAAAAAAAAAAA', 'job_', 'nope'];
    case 'language':
      return ['en', 'pt', 'fr'];
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Valid values from a schema

function numberText(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/** A value of the schema's type within its constraints (JS value; serialised later). */
export function validValue(doc: OpenApiDoc, name: string, raw: JsonSchema, pools: Pools): fc.Arbitrary<unknown> {
  const s = resolve(doc, raw);
  if (s.anyOf?.length) return fc.oneof(...s.anyOf.map((x) => validValue(doc, name, x, pools)));
  if (s.enum?.length) {
    const preferred = domainStrings(name).filter((v) => s.enum!.includes(v));
    const all = fc.constantFrom(...s.enum);
    return preferred.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...preferred) }, { weight: 1, arbitrary: all }) : all;
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum ?? -1000, -1e6), max: Math.min(s.maximum ?? 1000, 1e6) });
    case 'number':
      return fc
        .double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true, noDefaultInfinity: true })
        .map((n) => Math.round(n * 100) / 100)
        .filter((n) => (s.minimum === undefined || n >= s.minimum) && (s.maximum === undefined || n <= s.maximum));
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const item = s.items ? validValue(doc, name, s.items, pools) : fc.string();
      return fc.array(item, { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, 4) });
    }
    case 'object': {
      const props = Object.entries(s.properties ?? {});
      return fc.record(Object.fromEntries(props.map(([k, v]) => [k, validValue(doc, k, v, pools)])), { requiredKeys: s.required ?? [] });
    }
    default: {
      if (s.format === 'date') return futureDate;
      const min = Math.max(s.minLength ?? 0, 1);
      const max = Math.min(s.maxLength ?? 64, 40);
      const generic = s.pattern
        ? fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity))
        : fc.string({ minLength: min, maxLength: Math.max(min, max) });
      const domain = [...domainStrings(name), ...(name === 'cursor' ? pools.cursors : [])].filter((v) => v.length <= (s.maxLength ?? Infinity));
      return domain.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...domain) }, { weight: 1, arbitrary: generic }) : generic;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Hostile values

const WRONG_TYPE_TEXT = ['abc', 'true', 'false', 'null', 'undefined', '[]', '{}', '[object Object]', 'NaN', 'Infinity', '-Infinity', '1e3', '1E-2', '0x1F', '0b1', '1_000', ' 5 ', '+5', '-0', '.5', '5.', '007', '1.0', '1.5', '9'.repeat(400), '-9007199254740993'];
const NASTY_TEXT = ["' OR 1=1 --", '"; drop table api_keys; --', '<script>alert(1)</script>', '../../etc/passwd', '..\\..\\windows', '${jndi:ldap://127.0.0.1/a}', '{{7*7}}', '%s%s%s%n', '__proto__', 'constructor', 'toString', '\u0000', '\n', '\r\n', '\t', ' ', '\u200b', '\ufeff', '\ud800', '\udfff', '🏖️🏨', 'ÿ', 'İ', 'ß', 'Ω', '\u202e', 'a\u0000b', 'sandbox:UNAVAILABLE', 'SANDBOX:ASYNC'];

const hugeString = fc.oneof(
  fc.integer({ min: 190, max: 4000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 2040, max: 2060 }).map((n) => 'y'.repeat(n)),
  fc.string({ minLength: 200, maxLength: 600, unit: 'grapheme' }),
);
const unicodeString = fc.oneof(fc.string({ maxLength: 40, unit: 'grapheme' }), fc.string({ maxLength: 40, unit: 'binary' }), fc.string({ maxLength: 20, unit: 'grapheme-composite' }));

/** Edge and out-of-range values of the schema, as query text. */
function boundaryText(doc: OpenApiDoc, raw: JsonSchema): string[] {
  const s = resolve(doc, raw);
  const out: string[] = [];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'integer' || type === 'number') {
    for (const n of [s.minimum, s.maximum]) if (n !== undefined) out.push(numberText(n), numberText(n - 1), numberText(n + 1), numberText(n - 0.5), numberText(n + 0.001));
    out.push('0', '-1', '9007199254740993', '1e400', '-0.0');
  }
  if (s.format === 'date') {
    out.push(isoDay(-2), isoDay(-1), isoDay(0), isoDay(1), isoDay(366), isoDay(800), '2028-02-29', '2027-02-29', '2027-02-30', '2027-13-01', '0000-00-00', '9999-12-31', '1970-01-01', '2027-5-1', '2027-05-01T00:00:00Z', ' 2027-05-01', '20270501', '2027/05/01', '+02027-05-01');
  } else if (type === 'string') {
    if (s.maxLength !== undefined) out.push('z'.repeat(s.maxLength), 'z'.repeat(s.maxLength + 1));
    if (s.minLength !== undefined) out.push('z'.repeat(Math.max(0, s.minLength - 1)));
  }
  for (const e of s.enum ?? []) if (typeof e === 'string') out.push(e.toUpperCase(), ` ${e} `, `${e}x`, e.slice(0, -1), `${e},${e}`);
  if (type === 'boolean') out.push('TRUE', 'yes', 'on', '2', '-1', '');
  if (type === 'array') out.push(',', ',,,', 'a,,b', ' , ');
  return out.length ? out : ['', 'z'];
}

export type QuerySlot =
  | { kind: 'omit' }
  | { kind: 'one'; v: string }
  | { kind: 'many'; vs: string[]; style: 'repeat' | 'bracket' | 'comma' };

/** A hostile replacement for one query or path value. */
function hostileSlot(doc: OpenApiDoc, p: OpenApiParameter): fc.Arbitrary<QuerySlot> {
  const one = (a: fc.Arbitrary<string>) => a.map((v): QuerySlot => ({ kind: 'one', v }));
  return fc.oneof(
    { weight: 4, arbitrary: one(fc.constantFrom(...boundaryText(doc, p.schema))) },
    { weight: 3, arbitrary: one(fc.constantFrom(...WRONG_TYPE_TEXT)) },
    { weight: 2, arbitrary: one(fc.constantFrom(...NASTY_TEXT)) },
    { weight: 2, arbitrary: one(hugeString) },
    { weight: 2, arbitrary: one(unicodeString) },
    { weight: 1, arbitrary: fc.constant<QuerySlot>({ kind: 'one', v: '' }) },
    { weight: 1, arbitrary: fc.constant<QuerySlot>({ kind: 'omit' }) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.array(fc.oneof(fc.constantFrom(...boundaryText(doc, p.schema)), fc.string({ maxLength: 10 })), { minLength: 2, maxLength: 4 }), fc.constantFrom<'repeat' | 'bracket'>('repeat', 'bracket'))
        .map(([vs, style]): QuerySlot => ({ kind: 'many', vs, style })),
    },
  );
}

/** Serialises a valid JS value for the query string. */
function toSlot(value: unknown, arrayStyle: 'repeat' | 'bracket' | 'comma', boolStyle: 0 | 1): QuerySlot {
  if (value === undefined) return { kind: 'omit' };
  if (Array.isArray(value)) return value.length === 0 ? { kind: 'omit' } : { kind: 'many', vs: value.map((v) => scalarText(v, boolStyle)), style: arrayStyle };
  return { kind: 'one', v: scalarText(value, boolStyle) };
}
function scalarText(v: unknown, boolStyle: 0 | 1): string {
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return boolStyle ? (v ? '1' : '0') : String(v);
  return String(v);
}

// ---------------------------------------------------------------------------------------------
// Cross-field coherence for "valid" cases (rules the document cannot express)

function cohere(values: Record<string, unknown>, params: Set<string>, required: Set<string>, pick: number): void {
  const pair = (a: string, b: string, maxNights: number) => {
    if (!params.has(a) || !params.has(b)) return;
    if (values[a] === undefined && !required.has(a)) {
      delete values[b];
      return;
    }
    const start = (values[a] as string | undefined) ?? isoDay(10);
    values[a] = start;
    values[b] = addDays(start, 1 + (pick % maxNights));
  };
  pair('checkIn', 'checkOut', 30);
  pair('startDate', 'endDate', 90);
  if (params.has('children')) {
    const ages = Array.isArray(values.childAges) ? (values.childAges as unknown[]) : [];
    values.children = ages.length;
    if (!ages.length) delete values.childAges;
  }
  const oneOf = (keys: string[]) => {
    const present = keys.filter((k) => params.has(k));
    if (present.length < 2) return;
    const keep = present[pick % present.length]!;
    for (const k of present) if (k !== keep) delete values[k];
    if (values[keep] === undefined) values[keep] = keep === 'listingIds' ? ['123', '456'] : keep === 'url' ? LISTING_URLS[0] : keep === 'name' ? 'Hotel Lisboa' : '40000012';
  };
  oneOf(['listingId', 'listingIds', 'url']);
  // A listing URL of the platform asked for, most of the time.
  const own = typeof values.platform === 'string' ? PLATFORM_URLS[values.platform] : undefined;
  if (own && (pick >> 3) % 4 !== 0) {
    if (typeof values.url === 'string') values.url = own;
    if (typeof values.listingId === 'string' && /^https?:/.test(values.listingId)) values.listingId = own;
  }
  // Cursors belong to one query: a random one is only a validation test, so valid cases rarely send one.
  if (typeof values.cursor === 'string' && (pick >> 5) % 4 !== 0) delete values.cursor;
  oneOf(['name', 'googleHotelId']);
  if (params.has('priceMin') || params.has('priceMax') || params.has('sort')) {
    const dated = values.checkIn !== undefined;
    if (!dated) {
      delete values.priceMin;
      delete values.priceMax;
      if (typeof values.sort === 'string' && values.sort.startsWith('price')) delete values.sort;
    } else if (typeof values.priceMin === 'number' && typeof values.priceMax === 'number' && values.priceMax < values.priceMin) {
      [values.priceMin, values.priceMax] = [values.priceMax, values.priceMin];
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Serialisation to a raw request target

/** encodeURIComponent that never throws on lone surrogates (they become U+FFFD, as URLSearchParams does). */
function enc(s: string): string {
  return encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

const RAW_FRAGMENTS = ['&', '&&', '=', '==', '%', '%zz', '%FF%FE', 'x=%E0%A4%A', '+', ';', 'a[b]=1', '[]=1', '%5B%5D=1', 'limit=1&limit=2', '__proto__[x]=1', 'constructor=1', '?', '%00=%00', 'location%00=x'];
const EXTRA_KEYS = ['x', 'foo', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'LOCATION', 'Platform', 'q', 'api_key', 'key', 'access_token', 'callback', 'location[]', 'platforms[][]', 'a.b', ''];

export function queryString(entries: [string, QuerySlot][], extras: [string, string][], raw: string | null): string {
  const parts: string[] = [];
  for (const [k, slot] of entries) {
    if (slot.kind === 'one') parts.push(`${enc(k)}=${enc(slot.v)}`);
    else if (slot.kind === 'many') {
      if (slot.style === 'comma') parts.push(`${enc(k)}=${slot.vs.map(enc).join(',')}`);
      else for (const v of slot.vs) parts.push(`${enc(slot.style === 'bracket' ? `${k}[]` : k)}=${enc(v)}`);
    }
  }
  for (const [k, v] of extras) parts.push(`${enc(k)}=${enc(v)}`);
  if (raw) parts.push(raw);
  return parts.join('&');
}

/** Path segment variants: encoded as usual, or raw hostile encodings. */
const RAW_SEGMENTS = ['%2F', 'a%2Fb', '%252F', '%E0%A4%A', '%', '%zz', '%00', '%20', '%C0%AF', '..', '.', '%2e%2e', '%2E', '%5c', 'a;b', 'a:b', '@', '%40', '~', "'", '%27', '%22', '%3C%3E', '*', 'a%3Fb=c', '%23', '%FF', '%F0%9F%8F%96'];

// ---------------------------------------------------------------------------------------------
// Bodies

function hostileJson(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e308, -1e308, '', 'x', [], {}, [null], { a: { b: { c: {} } } }, '5', 'true', '2027-05-01'),
    fc.constantFrom(...WRONG_TYPE_TEXT, ...NASTY_TEXT),
    hugeString,
    unicodeString,
    fc.jsonValue({ maxDepth: 3 }),
  );
}

const RAW_BODIES = ['', ' ', '{', '}', '{"location":', '{"location":"Lisbon",}', "{'location':'Lisbon'}", 'location=Lisbon', 'null', '[]', '0', '"Lisbon"', '\ufeff{"location":"Lisbon"}', '{"location":"Lisbon","location":5}', '{"location":"Lisbon"}garbage', `${'['.repeat(3000)}${']'.repeat(3000)}`, `{"location":"Lisbon","x":${'{"a":'.repeat(500)}1${'}'.repeat(500)}}`, '{"location":"\\ud800"}', '{"location":"\\u0000"}', '{"__proto__":{"location":"Lisbon"}}', '{"constructor":{"prototype":{"x":1}},"location":"Lisbon"}'];
const CONTENT_TYPES = ['application/json', 'application/json', 'application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'APPLICATION/JSON', 'application/vnd.api+json'];

// ---------------------------------------------------------------------------------------------
// One case

const AUTH = fc.oneof(
  { weight: 88, arbitrary: fc.constant<AuthMode>('pool') },
  { weight: 2, arbitrary: fc.constant<AuthMode>('pool-lowercase-scheme') },
  { weight: 10, arbitrary: fc.constantFrom<AuthMode>('none', 'not-a-key', 'unknown-test', 'unknown-live', 'basic', 'empty-bearer') },
);

export function caseArbitrary(doc: OpenApiDoc, ops: FuzzOperation[], pools: Pools): fc.Arbitrary<FuzzCase> {
  // Built once per operation: `chain` would rebuild every arbitrary for every case.
  const perOp = ops.map((op) => opCase(doc, op, pools));
  return fc.oneof(...perOp);
}

function opCase(doc: OpenApiDoc, op: FuzzOperation, pools: Pools): fc.Arbitrary<FuzzCase> {
  const names = op.params.map((p) => p.name);
  const required = new Set(op.params.filter((p) => p.required).map((p) => p.name));
  const valid = fc.record(Object.fromEntries(op.params.map((p) => [p.name, fc.option(validValue(doc, p.name, p.schema, pools), { nil: undefined, freq: p.required ? 20 : 2 })])));
  const mutation = op.params.length
    ? fc.oneof(...op.params.map((p) => hostileSlot(doc, p).map((slot) => ({ name: p.name, slot }))))
    : fc.constant(null);
  const bodyArb = op.body ? bodyCase(doc, op.body, pools) : fc.constant(null);
  return fc
    .record({
      mode: fc.constantFrom<FuzzCase['mode']>('valid', 'valid', 'mutate', 'mutate', 'mutate', 'chaos'),
      values: valid,
      mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
      dropRequired: fc.boolean(),
      extras: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 12 })), fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(...WRONG_TYPE_TEXT))), { maxLength: 3 }),
      raw: fc.option(fc.constantFrom(...RAW_FRAGMENTS), { freq: 6 }),
      rawSegment: fc.option(fc.constantFrom(...RAW_SEGMENTS), { freq: 3 }),
      arrayStyle: fc.constantFrom<'repeat' | 'bracket' | 'comma'>('repeat', 'bracket', 'comma'),
      boolStyle: fc.constantFrom<0 | 1>(0, 1),
      pick: fc.nat(1000),
      auth: AUTH,
      body: bodyArb,
    })
    .map((c): FuzzCase => {
      const values: Record<string, unknown> = { ...c.values };
      cohere(values, new Set(names), required, c.pick);
      const slots = new Map<string, QuerySlot>(op.params.map((p) => [p.name, toSlot(values[p.name], c.arrayStyle, c.boolStyle)]));
      let extras: [string, string][] = [];
      let raw: string | null = null;
      let rawSegment: string | null = null;
      if (c.mode !== 'valid') {
        for (const m of c.mutations) if (m) slots.set(m.name, m.slot);
        if (c.dropRequired && required.size) slots.set([...required][c.pick % required.size]!, { kind: 'omit' });
        extras = c.extras;
        if (c.mode === 'chaos') {
          raw = c.raw;
          rawSegment = c.rawSegment;
        }
      }
      // Path: substitute each {param}; a path value that was omitted leaves an empty segment.
      const pathParams = op.params.filter((p) => p.in === 'path');
      let path = op.template;
      pathParams.forEach((p, i) => {
        const slot = slots.get(p.name) ?? { kind: 'omit' };
        let seg = slot.kind === 'one' ? enc(slot.v) : slot.kind === 'many' ? slot.vs.map(enc).join(',') : '';
        if (rawSegment !== null && i === pathParams.length - 1) seg = c.pick % 2 ? rawSegment : `${seg}${rawSegment}`;
        path = path.replace(`{${p.name}}`, seg);
      });
      const query = queryString(
        op.params.filter((p) => p.in === 'query').map((p) => [p.name, slots.get(p.name) ?? { kind: 'omit' }]),
        extras,
        raw,
      );
      let target = `/v1${path}${query ? `?${query}` : ''}`;
      // Node's HTTP parser answers 431 (no body, no request id) above 16 KiB of request head:
      // outside the service's contract, so the generated targets stay well below it.
      if (target.length > 12_000) target = target.slice(0, 12_000).replace(/%[0-9A-Fa-f]?$/, '');
      const out: FuzzCase = { op: op.key, method: op.method, path: target, auth: c.auth, mode: c.mode };
      if (c.body) {
        out.body = c.body.text;
        out.contentType = c.body.contentType;
      }
      return out;
    });
}

interface BodyCase {
  text: string;
  contentType: string;
}

function bodyCase(doc: OpenApiDoc, schema: JsonSchema, pools: Pools): fc.Arbitrary<BodyCase> {
  const s = resolve(doc, schema);
  const props = Object.entries(s.properties ?? {});
  const required = new Set(s.required ?? []);
  const validObject = fc
    .tuple(
      fc.record(Object.fromEntries(props.map(([k, v]) => [k, fc.option(validValue(doc, k, v, pools), { nil: undefined, freq: required.has(k) ? 20 : 2 })]))),
      fc.nat(1000),
    )
    .map(([o, pick]) => {
      const values: Record<string, unknown> = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
      cohere(values, new Set(props.map(([k]) => k)), required, pick);
      return values;
    });
  const propNames = props.map(([k]) => k);
  const mutated = fc
    .tuple(validObject, fc.array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...propNames) }, { weight: 1, arbitrary: fc.constantFrom(...EXTRA_KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }), fc.option(hostileJson(), { nil: undefined, freq: 8 })), { minLength: 1, maxLength: 3 }))
    .map(([o, muts]) => {
      const out: Record<string, unknown> = { ...o };
      for (const [k, v] of muts) {
        if (v === undefined) delete out[k];
        else Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
      return out;
    });
  const json = (a: fc.Arbitrary<unknown>) => a.map((v) => JSON.stringify(v) ?? 'null');
  return fc.record({
    text: fc.oneof(
      { weight: 4, arbitrary: json(validObject) },
      { weight: 5, arbitrary: json(mutated) },
      { weight: 2, arbitrary: json(fc.jsonValue({ maxDepth: 4 })) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) },
    ),
    contentType: fc.constantFrom(...CONTENT_TYPES),
  });
}
