import type { TRPC_ERROR_CODE_KEY, TRPC_ERROR_CODE_NUMBER, TRPCBuiltRouter, TRPCMutationProcedure, TRPCQueryProcedure, TRPCRouterRecord } from '@trpc/server';
import type { ErrorBody } from '../domain/errors.js';
import { appRouter, type AppRouter } from '../router/app-router.js';

/** The error a client receives: tRPC's shape, with the REST error body under `data.apiError`. */
export interface DashboardErrorShape {
  message: string;
  code: TRPC_ERROR_CODE_NUMBER;
  data: { code: TRPC_ERROR_CODE_KEY; httpStatus: number; path?: string; stack?: undefined; apiError: ErrorBody };
}

type Record_ = AppRouter['_def']['record'];
/** A procedure as a client sees it; a nested router (`console`) is its record of those. */
type ClientProcedure<P> =
  P extends TRPCQueryProcedure<infer D> ? TRPCQueryProcedure<{ input: D['input']; output: D['output']; meta: object }>
  : P extends TRPCMutationProcedure<infer D> ? TRPCMutationProcedure<{ input: D['input']; output: D['output']; meta: object }>
  : P extends TRPCRouterRecord ? { [K in keyof P]: ClientProcedure<P[K]> }
  : never;

/**
 * The router as a tRPC client sees it: each procedure's input, output and error shape, without
 * the server's context (database, cache, adapters) or its OpenAPI metadata. `npm run build:types`
 * emits this file's declarations, in which those types are written out in full, so a dashboard
 * compiles against them with @trpc/client alone (test/contract/trpc-types.test.ts).
 */
function forClients(router: AppRouter) {
  return router as unknown as TRPCBuiltRouter<
    { ctx: object; meta: object; errorShape: DashboardErrorShape; transformer: false },
    { [K in keyof Record_]: ClientProcedure<Record_[K]> }
  >;
}

export const dashboardRouter = forClients(appRouter);
export type DashboardRouter = typeof dashboardRouter;
