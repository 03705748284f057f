// A scratch project's use of the SDK, compiled by test/sdk/sdk-consumer.test.ts outside the
// repository under strict and exactOptionalPropertyTypes, with neither the DOM nor Node's type
// library (globals.d.ts declares the two globals used): the SDK's types must stand on their own. The @ts-expect-error lines prove the types
// refuse bad input (an unused one is itself a compile error).
import { AccommodationClient, ApiError, isAccepted, type Property } from '@accommodation-data/sdk';


const [baseUrl = '', apiKey = ''] = process.argv.slice(2);
const client = new AccommodationClient({ apiKey, baseUrl });

const page = await client.search({ location: 'Lisbon', platforms: ['booking', 'airbnb'], limit: 5, sort: 'rating_desc', currency: 'EUR' });
const first: Property | undefined = isAccepted(page) ? undefined : page.data[0];
const currency: string | null = isAccepted(page) ? null : page.meta.currency;

const seen = new Set<string>();
for await (const stay of client.searchAll({ location: 'Porto', platforms: ['vrbo'], limit: 20 })) seen.add(stay.platformListingId);

const estimate = await client.search({ location: 'Lisbon', dryRun: true });
const worstCase: number | undefined = isAccepted(estimate) ? undefined : estimate.data.worstCaseCredits;

let badCode = '';
try {
  await client.reviews({ platform: 'airbnb', listingId: '1', url: 'https://www.airbnb.com/rooms/1' });
} catch (e) {
  if (e instanceof ApiError) badCode = `${e.status} ${e.code}`;
}

/** Never called: these calls exist to be refused by the compiler. */
export function refusedAtCompileTime(): void {
  // @ts-expect-error adults is a number
  void client.search({ location: 'Lisbon', adults: 'two' });
  // @ts-expect-error no such platform
  void client.availability({ platform: 'myspace', listingId: '1', startDate: '2030-01-01', endDate: '2030-01-05' });
  // @ts-expect-error exactOptionalPropertyTypes: an optional parameter is left out, not undefined
  void client.search({ location: 'Lisbon', limit: undefined });
  // @ts-expect-error a listing needs its platform and id
  void client.listing({ id: '1' });
}

const account = await client.account();
console.log(JSON.stringify({ currency, firstOn: first?.platform ?? null, porto: seen.size, worstCase, badCode, env: account.data.key.env }));
