import { listingIdFromUrl } from '../../../domain/listing-ids/listing-url.js';
import type { Operation } from '../../../domain/platforms.js';
import type { PlatformAdapter } from '../../../domain/ports/platform.js';
import type { UpstreamClient } from '../http/upstream.js';
import { searchVrbo } from './search.js';

export interface VrboAdapterOptions {
  /** Origin of the public listing URLs returned to clients; must be a Vrbo host of the allowlist. Default https://www.vrbo.com. */
  siteUrl?: string;
  /** Results per upstream page, 1 to 50 (the legacy web client asks for 50). */
  pageSize?: number;
  /** Upstream pages read at most for one search leg. Default 10. */
  maxPages?: number;
}

/**
 * The live Vrbo adapter. Declared operations rest on recorded upstream answers only:
 *
 * - `search`: the legacy SERP GraphQL `listings[]` (../shared/upstream-samples/vrbo, 50 Chicago
 *   listings, undated). The envelope around `listings[]` (page, pageCount, resultCount) is taken
 *   from the legacy query's own selection set, not from a recording.
 *
 * Not declared (no recorded Vrbo answer exists, so they would rest on nothing real): `listing`,
 * `price`, `availability`, `reviews`. Live keys get platform_not_supported for them.
 */
export function createVrboAdapter(client: UpstreamClient, options: VrboAdapterOptions = {}): PlatformAdapter {
  const siteUrl = (options.siteUrl ?? 'https://www.vrbo.com').replace(/\/+$/, '');
  if (listingIdFromUrl('vrbo', `${siteUrl}/1234567`) !== '1234567') throw new Error(`vrbo siteUrl is not a Vrbo origin: ${siteUrl}`);
  const pageSize = options.pageSize ?? 50;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 50) throw new Error(`vrbo pageSize must be 1 to 50: ${pageSize}`);
  const maxPages = options.maxPages ?? 10;
  if (!Number.isInteger(maxPages) || maxPages < 1) throw new Error(`vrbo maxPages must be a positive integer: ${maxPages}`);
  const operations: ReadonlySet<Operation> = new Set<Operation>(['search']);
  return {
    platform: 'vrbo',
    operations,
    search: (req, signal) => searchVrbo(client, req, signal, { siteUrl, pageSize, maxPages }),
  };
}
