import { t } from './trpc.js';
import { mapFailure } from './middleware/errors.js';
import { failedResult } from './trpc-internals.js';
import { authenticate } from './middleware/auth.js';
import { rateLimit } from './middleware/rate-limit.js';
import { steps } from './middleware/steps.js';
import { costControls } from './billing/cost-controls.js';
import { shapeAnswer } from './shaping/shape-answer.js';
import { restRetries } from './retries/rest-retries.js';
import { acceptAsync } from './jobs/async-jobs.js';
import { releaseHold } from './billing/credit-hold.js';
import { refuseControlCharacters } from './control-characters.js';
import { applyDeprecations } from './lifecycle/apply-deprecations.js';

/**
 * The entry of every operation, in design.md's order: errors mapped (outermost), auth, rate
 * limit, then the REST input the face could not read (refused here, like any bad input);
 * `.input()` validation and the handler follow. One middleware rather than four: tRPC copies its
 * call options twice at every middleware level, which was the largest cost of a cached call of
 * our own (issue 15). A failure thrown here
 * is turned into a failed result as tRPC does between levels, so it is mapped the same way.
 */
const enter = t.middleware(async ({ ctx, path, getRawInput, next }) => {
  let result: Awaited<ReturnType<typeof next<{ principal: NonNullable<typeof ctx.principal> }>>>;
  try {
    const principal = await authenticate(ctx);
    await rateLimit(ctx, principal);
    if (ctx.inputError) throw ctx.inputError;
    const rawInput = await getRawInput();
    refuseControlCharacters(rawInput);
    applyDeprecations(ctx, path, rawInput);
    result = await next({ ctx: { principal } });
  } catch (cause) {
    result = failedResult(cause);
  }
  return mapFailure(ctx, path, getRawInput, result);
});

export const authedProcedure = t.procedure.use(enter);
export const router = t.router;

/**
 * The steps of a billed operation between `.input()` and `.output()`, outermost first (issue 16
 * cost controls, issue 17 retries, spec 4.9's 202): one middleware level for all of them.
 */
export const billedSteps = steps(costControls, restRetries, acceptAsync, releaseHold);
/** The same, for operations whose answer `fields=` and `view=compact` shape (after billing). */
export const shapeableBilledSteps = steps(costControls, shapeAnswer, restRetries, acceptAsync, releaseHold);
