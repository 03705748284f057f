import { t } from './trpc.js';
import { mapErrors } from './middleware/errors.js';
import { readRestInput } from './middleware/rest-path.js';
import { authenticate } from './middleware/auth.js';
import { rateLimit } from './middleware/rate-limit.js';

/**
 * The pipeline every operation runs through, in design.md's order: errors mapped (outermost),
 * auth, rate limit, then input reading (REST body and path decoding) and `.input()` validation;
 * the handler runs the verb.
 */
export const authedProcedure = t.procedure
  .use(mapErrors)
  .use(authenticate)
  .use(rateLimit)
  .use(readRestInput);
export const router = t.router;
