import { failedResult, type MiddlewareResult } from '../trpc-internals.js';
import type { Context } from '../context.js';
import { t } from '../trpc.js';

export type StepResult = MiddlewareResult<object>;

/** What a step sees: as a tRPC middleware's options, with `next` taking only context additions. */
export interface StepCall {
  ctx: Context;
  path: string;
  input: unknown;
  next(ctx?: Partial<Context>): Promise<StepResult>;
}

/** One step of an operation's pipeline after `.input()`, written as a tRPC middleware would be. */
export type Step = (call: StepCall) => Promise<StepResult>;

/** The call one level of steps runs in: tRPC's options, with its `next` to the next level. */
interface LevelCall {
  ctx: Context;
  path: string;
  input: unknown;
  next(): Promise<StepResult>;
}

/**
 * Runs the steps from `index` on. Module-level, and `next` a method: under tsx (npm start) an
 * arrow or function given a name inside a call is renamed at run time on every call (README,
 * "Performance").
 */
async function runFrom(index: number, list: readonly Step[], level: LevelCall): Promise<StepResult> {
  if (index === list.length) return level.next();
  try {
    return await list[index]!({
      ctx: level.ctx,
      path: level.path,
      input: level.input,
      next(more) {
        if (more) Object.assign(level.ctx, more);
        return runFrom(index + 1, list, level);
      },
    });
  } catch (cause) {
    return failedResult<StepResult>(cause);
  }
}

/**
 * Runs `steps` (outermost first) as one tRPC middleware level. Each step behaves exactly as if it
 * were its own `.use()`: what it throws reaches the step around it as a failed result, and the
 * context it adds reaches the steps inside it and the handler. One level instead of one per step,
 * because tRPC copies its call options twice at each level (issue 15).
 */
export function steps(...list: Step[]) {
  return t.middleware(async ({ ctx, path, input, next }) => {
    // This context is the call's own: the entry middleware's `next({ ctx })` made it for this call
    // alone, so a step's additions are written into it rather than copied again. Every later step
    // and the handler then see one object, as they saw tRPC's one copy before. (A step around the
    // one adding would see the addition after its `next()` returns, where tRPC's copy would not;
    // only the outermost step, cost controls, adds anything.)
    return runFrom(0, list, { ctx, path, input, next });
  });
}
