import { estimateCall, DryRunStop, type EstimateBreaker } from '../../domain/billing/estimate.js';
import type { Operation } from '../../domain/platforms.js';
import type { CallShape } from '../../domain/billing/pricing.js';
import type { OperationEnv } from '../../domain/operations/shared.js';
import type { Authed } from '../context.js';

/**
 * The hooks that turn a call into its free estimate (issue 16 item 2): the verb validates and
 * builds its legs as usual; instead of the 402 checks, the call's shape is kept; once the leg
 * cache was read, the estimate is thrown before any platform is asked or any job is made.
 */
export function dryRunHooks(ctx: Authed): Pick<OperationEnv, 'beforeUpstream' | 'preview'> {
  let call: { op: Operation; shape: CallShape } | null = null;
  const live = ctx.principal.env === 'live';
  const breaker = (platform: Parameters<typeof ctx.deps.breakers.state>[0]): EstimateBreaker => (live ? ctx.deps.breakers.state(platform) : 'none');
  return {
    beforeUpstream: (op, shape) => {
      call = { op, shape };
    },
    preview: (legs) => {
      if (!call) throw new Error('a dry run reached the legs without its call shape');
      const { creditSchedule } = ctx.deps.config;
      throw new DryRunStop(estimateCall(creditSchedule, ctx.principal.env, call.op, call.shape, legs, breaker, ctx.maxCredits ?? null));
    },
  };
}
