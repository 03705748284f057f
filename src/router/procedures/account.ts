import { z } from 'zod';
import { AccountView } from '../../domain/model/account.js';
import { PLANS, requestsPerMinute } from '../../domain/accounts/plans.js';
import { authedProcedure } from '../procedure.js';

/** spec 4.8: free, never 202, bare `{ data }`; the balance is as read at authentication. */
export const account = authedProcedure
  .meta({ openapi: { method: 'GET', path: '/account', tags: ['Account'], summary: 'The calling key and its account', description: 'Plan, key kind, credit balance and rate limit. Free.' } })
  // No input: `account.query()` takes no argument (REST query parameters are warned about, not read).
  .input(z.object({}).optional())
  .output(z.object({ data: AccountView }).meta({ id: 'AccountResponse' }))
  .query(async ({ ctx }) => {
    // The balance is read now, not from the (briefly cached) authentication.
    const p = (await ctx.deps.keys.findById(ctx.principal.keyId)) ?? ctx.principal;
    const plan = PLANS[p.plan];
    return {
      data: {
        accountId: p.accountId,
        plan: { code: plan.code, name: plan.name, status: p.subscriptionStatus },
        key: { env: p.env, prefix: p.keyPrefix },
        credits: { balance: p.balance },
        rateLimit: { requestsPerMinute: requestsPerMinute(p.plan, p.env, p.rateLimitOverride) },
      },
    };
  });
