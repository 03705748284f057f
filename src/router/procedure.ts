import { t } from './trpc.js';
import { mapErrors } from './middleware/errors.js';
import { decodeRestPathParams } from './middleware/rest-path.js';
import { authenticate } from './middleware/auth.js';
import { rateLimit } from './middleware/rate-limit.js';

/**
 * The pipeline every operation runs through, in design.md's order: errors mapped (outermost),
 * auth, rate limit, then input reading (REST body and path decoding) and `.input()` validation;
 * the handler runs the verb.
 */
const rejectUnreadableBody = t.middleware(({ ctx, next }) => {
  if (ctx.bodyError) throw ctx.bodyError;
  return next();
});

export const authedProcedure = t.procedure
  .use(mapErrors)
  .use(authenticate)
  .use(rateLimit)
  .use(rejectUnreadableBody)
  .use(decodeRestPathParams);
export const router = t.router;
