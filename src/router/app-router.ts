import { router } from './procedure.js';
import { account } from './procedures/account.js';
import { availability } from './procedures/availability.js';
import { job } from './procedures/jobs.js';
import { listing } from './procedures/listing.js';
import { platforms } from './procedures/platforms.js';
import { price } from './procedures/price.js';
import { priceCompare } from './procedures/price-compare.js';
import { reviews } from './procedures/reviews.js';
import { search, searchByBody } from './procedures/search.js';
import { consoleRouter } from './console/console-router.js';

/** Every operation, defined once; REST, MCP and tRPC differ only in transport. */
export const appRouter = router({
  search,
  searchByBody,
  availability,
  listing,
  price,
  priceCompare,
  reviews,
  account,
  platforms,
  job,
  /** The developer console's own reads and actions: only a browser session on /console/trpc may call them. */
  console: consoleRouter,
});

export type AppRouter = typeof appRouter;
