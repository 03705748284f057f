import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseListings, parseSearchPage, type SearchParseContext } from '../../src/adapters/platforms/vrbo/parse-search.js';
import { readPriceSummary } from '../../src/adapters/platforms/vrbo/price-summary.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';
import { listingIdFromUrl } from '../../src/domain/listing-ids/listing-url.js';
import { Property } from '../../src/domain/model/property.js';
import { LegFailure } from '../../src/domain/ports/platform.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLES = path.resolve(ROOT, '../shared/upstream-samples/vrbo');
const SAMPLE_FILE = 'legacy-serp-graphql-listings-chicago-2020.json';
const FIXTURE = path.join(ROOT, 'fixtures/replay/vrbo/serp/g/SearchRequestQuery.json');

const UNDATED: SearchParseContext = { siteUrl: 'https://www.vrbo.com', currency: 'USD', dated: false };
const DATED: SearchParseContext = { ...UNDATED, dated: true };
const load = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const codes = (w: FieldWarnings) => w.list.map((x) => x.code);

it('vrbo shared samples: present, or skipped with a reason', () => {
  if (!existsSync(SAMPLES)) console.warn(`[parse-vrbo] ${SAMPLES} is absent: the shared-sample parser tests are skipped (CI has it at ../shared/upstream-samples).`);
  expect(typeof existsSync(SAMPLES)).toBe('boolean');
});

describe.skipIf(!existsSync(SAMPLES))('vrbo parser on the legacy SERP sample (50 Chicago listings, undated)', () => {
  const listings = () => load(path.join(SAMPLES, SAMPLE_FILE)) as unknown[];
  const parse = (ctx = UNDATED) => {
    const w = new FieldWarnings('vrbo');
    return { items: parseListings(listings(), ctx, w), w };
  };
  const byId = (id: string) => parse().items.find((p) => p.platformListingId === id)!;

  it('parses all 50 items into valid Properties, in the platform order, with unique ids', () => {
    const { items, w } = parse();
    expect(items).toHaveLength(50);
    for (const p of items) expect(Property.safeParse(p).success).toBe(true);
    expect(new Set(items.map((p) => p.id)).size).toBe(50);
    expect(items.slice(0, 3).map((p) => p.id)).toEqual(['stays_vrbo_7757', 'stays_vrbo_4888781ha', 'stays_vrbo_65673']);
    expect(codes(w)).not.toContain('item_skipped');
    expect(codes(w)).not.toContain('property_type_unmapped');
    expect(items.find((p) => p.platformListingId === '420297')!.name).toBe('75 Paces to Beach Stairs and LUNA GOWDY BEACH');
  });

  it('maps the first item (listingId 321.7757.7757) field by field', () => {
    const p = byId('7757');
    expect(p).toMatchObject({
      id: 'stays_vrbo_7757',
      platform: 'vrbo',
      platformListingId: '7757',
      url: 'https://www.vrbo.com/7757?unitId=7757',
      name: '55/56th Floor Penthouse - VIEWS, Fireplace, Balcony, Fitness Center',
      propertyType: 'apartment', // "Condo"
      location: { lat: 41.8920783996582, lng: -87.62808990478516, city: null, region: null, country: null },
      starRating: null,
      guestRating: 4.9330144,
      ratingScale: 5,
      reviewCount: 209,
      maxOccupancy: 8,
      bedrooms: 3,
      bathrooms: 2,
      host: { name: null, isSuperhost: true }, // "Premier Host" badge
      price: null,
    });
    expect(p.amenities).toEqual(['pool', 'air_conditioning', 'tv', 'fireplace', 'washer', 'dryer', 'heating', 'kitchen']);
    expect(p.images).toHaveLength(42);
    expect(p.images![0]).toBe('https://media.vrbo.com/lodging/20000000/19100000/19091800/19091730/faca1b06.c6.jpg');
    expect(listingIdFromUrl('vrbo', p.url)).toBe('7757');
  });

  it('keeps the HomeAway-namespace id verbatim ("4888781ha"), with its unit in the URL', () => {
    const p = byId('4888781ha');
    expect(p).toMatchObject({ id: 'stays_vrbo_4888781ha', url: 'https://www.vrbo.com/4888781ha?unitId=5935865', bedrooms: 3, bathrooms: 2, maxOccupancy: 9, reviewCount: 38 });
    expect(p.name).toBe('A family/pet friendly home designed as an attractive workspace for professionals');
    expect(parse().items.filter((x) => x.platformListingId.endsWith('ha'))).toHaveLength(14);
  });

  it('counts half baths as 0.5 (listing 1282460 is headlined "2.5 BATH") and reads all-zero bathrooms as not stated', () => {
    expect(byId('1282460')).toMatchObject({ bathrooms: 2.5, bedrooms: 4, name: expect.stringContaining('2.5 BATH') });
    expect(byId('1134384').bathrooms).toBe(3.5);
    expect(byId('1339312').bathrooms).toBe(0.5);
    const { items, w } = parse();
    expect(items.find((p) => p.platformListingId === '4716130ha')!.bathrooms).toBeNull();
    expect(items.find((p) => p.platformListingId === '237347')!.bathrooms).toBeNull();
    expect(w.list).toContainEqual(expect.objectContaining({ code: 'field_unavailable', message: expect.stringMatching(/^bathrooms: .*not entered/) }));
  });

  it('maps property types and amenity badges, dropping badges with no exact canonical value', () => {
    const { items } = parse();
    const types = new Map(items.map((p) => [p.platformListingId, p.propertyType]));
    expect(types.get('1329548')).toBe('other'); // "Guest house/pension"
    expect(types.get('4747366ha')).toBe('house'); // "Townhome"
    expect(types.get('4276510ha')).toBe('apartment'); // "Studio"
    expect(types.get('853827')).toBe('cottage'); // "Cabin"
    const all = new Set(items.flatMap((p) => p.amenities ?? []));
    expect(all).toContain('hot_tub');
    expect(all).toContain('pets_allowed');
    expect(all).toContain('garden');
    expect(all).not.toContain('wifi'); // "Internet" does not say wireless
    expect(all).not.toContain('free_parking'); // "Parking" does not say free
    expect(items.filter((p) => p.amenities!.includes('pool'))).toHaveLength(10);
  });

  it('reads the "avg/night" summary but never presents it as a stay price', () => {
    expect(readPriceSummary((listings()[0] as { priceSummary: unknown }).priceSummary, 'USD')).toEqual({ amount: 666, currency: 'USD', period: 'avg/night', priceTypeId: 'UNKNOWN' });
    const undated = parse();
    expect(undated.items.every((p) => p.price === null)).toBe(true);
    expect(codes(undated.w)).not.toContain('price_basis_unclear');
    const dated = parse(DATED);
    expect(dated.items.every((p) => p.price === null)).toBe(true);
    expect(dated.w.list.filter((x) => x.code === 'price_basis_unclear')).toEqual([
      expect.objectContaining({ platform: 'vrbo', message: expect.stringContaining('listing 7757: $666 avg/night') }),
    ]);
  });

  it('fails the leg when the answer is in another currency than asked (the sample states USD)', () => {
    expect(() => parseListings(listings(), { ...UNDATED, currency: 'EUR', dated: true }, new FieldWarnings('vrbo'))).toThrow(new LegFailure('failed', 'vrbo answered in USD, not EUR'));
  });
});

describe('vrbo parser on the project fixture (fixtures/replay/vrbo/serp/g/SearchRequestQuery.json)', () => {
  const parse = (ctx = UNDATED) => {
    const w = new FieldWarnings('vrbo');
    return { page: parseSearchPage(load(FIXTURE), 1, 50, ctx, w), w };
  };

  it('parses the envelope and four items in order; the last page has no more', () => {
    const { page } = parse();
    expect(page.more).toBe(false);
    expect(page.items.map((p) => p.id)).toEqual(['stays_vrbo_90011', 'stays_vrbo_90011ha', 'stays_vrbo_77001', 'stays_vrbo_58123']);
    for (const p of page.items) expect(Property.safeParse(p).success).toBe(true);
  });

  it('keeps the same number in two namespaces as two properties', () => {
    const [loft, cottage] = parse().page.items;
    expect(loft).toMatchObject({ name: 'Sunny Riverside Loft with Rooftop Pool', propertyType: 'apartment', bathrooms: 1.5, guestRating: 4.75, reviewCount: 48, url: 'https://www.vrbo.com/90011?unitId=90011' });
    expect(loft!.amenities).toEqual(['pool', 'washer', 'dryer', 'kitchen']);
    expect(cottage).toMatchObject({ name: 'Garden Cottage Two Blocks from the Lake', propertyType: 'cottage', bathrooms: 2, guestRating: 5, host: null, url: 'https://www.vrbo.com/90011ha?unitId=95555' });
    expect(cottage!.amenities).toEqual(['hot_tub', 'pets_allowed', 'fireplace', 'garden']);
  });

  it('an item with no reviews, no coordinates, no bathrooms and an unknown type: nulls with warnings; no badges is no amenity list (null), not []', () => {
    const { page, w } = parse();
    const tree = page.items[2]!;
    expect(tree).toMatchObject({ guestRating: null, reviewCount: 0, bathrooms: null, propertyType: 'other', amenities: null, images: [], location: { lat: null, lng: null } });
    expect(w.list).toContainEqual({ code: 'property_type_unmapped', message: expect.stringContaining('"Treehouse"'), platform: 'vrbo' });
    expect(w.list.map((x) => x.message)).toEqual(expect.arrayContaining([expect.stringMatching(/^location\.lat\/lng:/), expect.stringMatching(/^bathrooms:/), expect.stringMatching(/^amenities: the listing shows no amenity badges/)]));
    expect(page.items[3]).toMatchObject({ propertyType: 'house', bedrooms: 4, bathrooms: 2.5, maxOccupancy: 10, amenities: ['air_conditioning', 'tv', 'heating'] });
  });

  it('parses "$1,120" exactly and flags dated summaries as price_basis_unclear', () => {
    const raw = (load(FIXTURE) as { data: { results: { listings: { priceSummary: unknown }[] } } }).data.results.listings;
    expect(readPriceSummary(raw[2]!.priceSummary, 'USD')?.amount).toBe(1120);
    const { page, w } = parse(DATED);
    expect(page.items.every((p) => p.price === null)).toBe(true);
    expect(codes(w)).toContain('price_basis_unclear');
  });
});
