import createClient from 'openapi-fetch';
import type { paths } from '../../../clients/openapi/api.js';
import { SANDBOX_HOTEL } from '../../support/sandbox-hotel.js';

/**
 * A client a REST consumer would write: openapi-fetch over the types openapi-typescript generates
 * from our document (clients/openapi/api.d.ts). The contract test compiles this file with tsc and
 * runs it against the sandbox; the `@ts-expect-error` lines prove the types refuse bad input.
 */
export async function callEveryOperation(baseUrl: string, key: string, stay: { checkIn: string; checkOut: string }) {
  const api = createClient<paths>({ baseUrl: `${baseUrl}/v1`, headers: { Authorization: `Bearer ${key}` } });
  const statuses: Record<string, number> = {};

  const search = await api.GET('/search', { params: { query: { location: 'Lisbon', platforms: ['airbnb', 'booking'], limit: 5, ...stay, sort: 'price_asc' } } });
  statuses.search = search.response.status;
  const first = search.data && 'pagination' in search.data.meta ? search.data.data : [];
  // A 200 may also be a dry run's estimate or a fields/view-shaped envelope: narrow to what is used.
  const item = Array.isArray(first) ? first[0] : undefined;
  if (!item?.platform || !item.platformListingId) throw new Error('search returned no listing');
  const listing = { platform: item.platform, platformListingId: item.platformListingId };

  const byBody = await api.POST('/search', { body: { location: 'Porto', adults: 3, amenities: ['wifi'] } });
  statuses.searchByBody = byBody.response.status;

  const availability = await api.GET('/availability', { params: { query: { platform: listing.platform, listingId: listing.platformListingId, startDate: stay.checkIn, endDate: stay.checkOut } } });
  statuses.availability = availability.response.status;

  const detail = await api.GET('/listing/{platform}/{id}', { params: { path: { platform: listing.platform, id: listing.platformListingId }, query: { ...stay, currency: 'EUR' } } });
  statuses.listing = detail.response.status;

  const price = await api.GET('/price', { params: { query: { platform: listing.platform, listingId: listing.platformListingId, ...stay, adults: 2, children: 1, childAges: [7] } } });
  statuses.price = price.response.status;

  const compare = await api.GET('/price-compare', { params: { query: { name: SANDBOX_HOTEL, location: 'Lisbon', ...stay } } });
  statuses.priceCompare = compare.response.status;

  const reviews = await api.GET('/reviews', { params: { query: { platform: listing.platform, listingId: listing.platformListingId, limit: 5, sort: 'rating_desc' } } });
  statuses.reviews = reviews.response.status;

  const account = await api.GET('/account');
  statuses.account = account.response.status;

  const platforms = await api.GET('/platforms');
  statuses.platforms = platforms.response.status;

  const accepted = await api.GET('/search', { params: { query: { location: 'sandbox:async' } } });
  statuses.searchAsync = accepted.response.status;
  const jobId = accepted.data && 'jobId' in accepted.data.data ? accepted.data.data.jobId : 'job_missing';
  const job = await api.GET('/jobs/{jobId}', { params: { path: { jobId } } });
  statuses.job = job.response.status;
  // A job's result is typed by its operation: narrowed on it, no cast.
  const polled = job.data?.data;
  const firstName = polled?.operation === 'search' && polled.result ? polled.result[0]?.name : undefined;

  const bad = await api.GET('/search', { params: { query: { location: 'Lisbon', adults: 0 } } });
  const badCode = bad.error?.error.code;

  if (false as boolean) {
    // @ts-expect-error platform is an enum
    await api.GET('/reviews', { params: { query: { platform: 'myspace', listingId: '1' } } });
    // @ts-expect-error limit is a number
    await api.GET('/search', { params: { query: { location: 'Lisbon', limit: 'abc' } } });
    // @ts-expect-error radiusKm is a number (location or bbox, one of them, is a runtime rule since bbox)
    await api.GET('/search', { params: { query: { location: 'Lisbon', radiusKm: 'far' } } });
    // @ts-expect-error no such path
    await api.GET('/bookings');
    // @ts-expect-error a job's result is a union until its operation is checked
    void polled?.result?.[0].name;
  }

  return { statuses, badCode, planName: account.data?.data.plan.name, matrixKind: platforms.data?.data.keyKind, jobStatus: job.data?.data.status, jobOperation: polled?.operation, firstName };
}
