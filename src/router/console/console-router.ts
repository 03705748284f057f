import { z } from 'zod';
import { ServiceError } from '../../domain/errors.js';
import { PLANS, isPlanCode, requestsPerMinute, type KeyEnv } from '../../domain/accounts/plans.js';
import { OPERATIONS, PLATFORMS } from '../../domain/platforms.js';
import { capabilityMatrix } from '../../domain/capabilities.js';
import { createContext } from '../context.js';
import { router } from '../procedure.js';
import { search } from '../procedures/search.js';
import { sessionProcedure } from './trpc.js';

const DAY_MS = 86_400_000;

/** The search procedure alone: the sandbox button calls it without importing the router this one is part of. */
const sandbox = router({ search });

/**
 * What the signed-in account sees in the developer console, the `console` part of AppRouter;
 * every read is scoped to the session's account (trpc.ts says who may call it).
 */
export const consoleRouter = router({
  overview: sessionProcedure.query(async ({ ctx }) => {
    const row = await ctx.store.overview(ctx.session.accountId);
    if (!row) throw new ServiceError('unauthenticated', 'Sign in to the console first.');
    const plan = isPlanCode(row.plan) ? row.plan : 'free';
    return {
      email: row.email,
      plan: PLANS[plan].name,
      balance: row.balance,
      emailVerified: row.emailVerified,
      liveRequestsPerMinute: requestsPerMinute(plan, 'live', row.rateLimitOverride),
      sandboxRequestsPerMinute: requestsPerMinute(plan, 'sandbox', row.rateLimitOverride),
    };
  }),

  keys: sessionProcedure.query(async ({ ctx }) => {
    const rows = await ctx.store.keys(ctx.session.accountId);
    return rows.map((k) => ({ keyId: k.keyId, prefix: k.prefix, env: k.env, createdAt: k.createdAt.toISOString(), revokedAt: k.revokedAt?.toISOString() ?? null, lastUsedAt: k.lastUsedAt?.toISOString() ?? null }));
  }),

  /** The key itself is in this answer only: it is stored as a hash. */
  createKey: sessionProcedure.input(z.object({ env: z.enum(['live', 'sandbox']) })).mutation(async ({ ctx, input }) => {
    const { key, keyId, prefix } = await ctx.deps.admin.createKey(ctx.session.accountId, input.env);
    return { key, keyId, prefix };
  }),

  revokeKey: sessionProcedure.input(z.object({ keyId: z.string().min(1).max(64) })).mutation(async ({ ctx, input }) => {
    // Another account's key is "not found" too: the answer says nothing about other accounts.
    if (!(await ctx.store.ownsKey(ctx.session.accountId, input.keyId))) throw new ServiceError('not_found', `No key ${input.keyId} on this account.`, { param: 'keyId' });
    await ctx.deps.admin.revokeKey(input.keyId);
    return { keyId: input.keyId, revoked: true as const };
  }),

  /**
   * Credits charged per UTC day over the last 30 days, split by operation and by platform, and
   * beside them the sandbox calls per day (0 credits; written every few seconds, so the newest
   * seconds may not show yet).
   */
  usage: sessionProcedure.query(async ({ ctx }) => {
    const now = ctx.deps.clock.now();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 29 * DAY_MS);
    const { usage } = ctx.store;
    const [byOperation, byPlatform, sandboxCalls] = await Promise.all([usage.byOperation(ctx.session.accountId, since), usage.byPlatform(ctx.session.accountId, since), usage.sandboxByDay(ctx.session.accountId, since)]);
    return { since: since.toISOString().slice(0, 10), byOperation, byPlatform, sandboxCalls };
  }),

  /** The newest billed requests (and jobs), filtered by operation, platform and outcome. */
  requests: sessionProcedure
    .input(
      z.object({
        operation: z.enum(OPERATIONS).nullable().default(null),
        platform: z.enum(PLATFORMS).nullable().default(null),
        status: z.enum(['complete', 'partial']).nullable().default(null),
        limit: z.number().int().min(1).max(200).default(50),
      }),
    )
    .query(({ ctx, input }) => ctx.store.usage.billedRequests(ctx.session.accountId, input, input.limit)),

  jobs: sessionProcedure.query(({ ctx }) => ctx.store.jobs(ctx.session.accountId, 50)),

  /**
   * The platforms that serve something for the account's active keys (the /v1/platforms matrix
   * of each key kind it holds; both kinds before it has a key), in the matrix's order: the
   * console's platform filter offers these only.
   */
  platforms: sessionProcedure.query(async ({ ctx }) => {
    const keys = (await ctx.store.keys(ctx.session.accountId)).filter((k) => !k.revokedAt);
    const kinds: KeyEnv[] = keys.length ? [...new Set(keys.map((k): KeyEnv => (k.env === 'live' ? 'live' : 'sandbox')))] : ['sandbox', 'live'];
    const serving = new Set(kinds.flatMap((kind) => capabilityMatrix(ctx.deps.platforms[kind]).filter((p) => p.operations.length > 0).map((p) => p.platform)));
    return PLATFORMS.filter((p) => serving.has(p));
  }),

  /**
   * The sandbox search a key would get (free, deterministic fixtures), run through the same
   * procedure and pipeline as /v1/search, as the signed-in account with a sandbox principal; its
   * rate limit is the account's console bucket, the sandbox figure.
   */
  sandboxSearch: sessionProcedure.input(z.object({ location: z.string().min(1).max(200) })).mutation(async ({ ctx, input }) => {
    // An async job is run and polled for a key; the console has none, so it shows synchronous paths only.
    if (input.location.trim().toLowerCase() === 'sandbox:async') throw new ServiceError('invalid_request', 'The console runs searches synchronously: try sandbox:async with a sandbox key on /v1/search.', { param: 'location', subCode: 'invalid_value' });
    const principal = await ctx.deps.keys.forAccount(ctx.session.accountId, `console:${ctx.session.accountId}`, 'sandbox');
    if (!principal) throw new ServiceError('unauthenticated', 'Sign in to the console first.');
    const call = { ...createContext(ctx.deps, { transport: 'console', requestId: ctx.requestId, authorization: null, clientAddress: ctx.clientAddress }), principal: { ...principal, keyPrefix: 'console' } };
    return sandbox.createCaller(call).search({ location: input.location, limit: 5 });
  }),
});
