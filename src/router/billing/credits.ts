import { ServiceError } from '../../domain/errors.js';
import type { Operation } from '../../domain/platforms.js';
import { maxCredits, type CallShape } from '../../domain/billing/pricing.js';
import type { Authed } from '../context.js';

/**
 * Runs before any upstream work (design.md section 3): a live call that could cost credits needs
 * to fit the caller's `maxCredits` (402 max_credits_exceeded), a verified e-mail (403
 * email_unverified), and a balance that covers its largest possible cost
 * (402). Both are free answers. The debit itself is guarded again when the call settles.
 */
/** Returns the call's largest possible cost, which the call then holds (credit-hold.ts). */
export function assertCanPay(ctx: Authed, op: Operation, shape: CallShape): number {
  const { principal } = ctx;
  const worst = maxCredits(ctx.deps.config.creditSchedule, principal.env, op, shape);
  // The caller's own cap comes first: a call it refuses is refused whatever the balance.
  if (ctx.maxCredits !== undefined && worst > ctx.maxCredits) {
    throw new ServiceError('max_credits_exceeded', `This call can cost up to ${worst} credits, more than maxCredits=${ctx.maxCredits}. Nothing was charged and no platform was asked.`, { param: 'maxCredits' });
  }
  if (worst === 0) return 0;
  if (!principal.emailVerified) {
    throw new ServiceError('permission_denied', 'Verify the e-mail address of this account before making calls that use live credits.', { subCode: 'email_unverified' });
  }
  if (principal.balance < worst) {
    throw new ServiceError('credit_balance_too_low', `This call can cost up to ${worst} credits; the balance is ${principal.balance}. Nothing was charged.`);
  }
  return worst;
}
