import { z } from 'zod';

export const AccountView = z
  .object({
    /** The account the key belongs to: what support and the admin CLI ask for. */
    accountId: z.string(),
    plan: z.object({ code: z.string(), name: z.string(), status: z.string() }),
    key: z.object({ env: z.enum(['live', 'sandbox']), prefix: z.string() }),
    credits: z.object({ balance: z.number().int() }),
    rateLimit: z.object({ requestsPerMinute: z.number().int() }),
  })
  .meta({ id: 'Account' });
export type AccountView = z.infer<typeof AccountView>;
