import { z } from 'zod';

export const AccountView = z
  .object({
    plan: z.object({ code: z.string(), name: z.string(), status: z.string() }),
    key: z.object({ env: z.enum(['live', 'sandbox']), prefix: z.string() }),
    credits: z.object({ balance: z.number().int() }),
    rateLimit: z.object({ requestsPerMinute: z.number().int() }),
  })
  .meta({ id: 'Account' });
export type AccountView = z.infer<typeof AccountView>;
