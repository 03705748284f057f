import type { ServerResponse } from 'node:http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { errorBody, type ServiceError } from '../../domain/errors.js';
import { toTRPCError } from '../../router/errors.js';

/**
 * An error in the tRPC face's own format (what `@trpc/client` reads), for answers given before
 * the adapter runs: the JSON-RPC code, the tRPC code and status, and our error body under
 * `data.apiError` as on every other tRPC error.
 */
export function trpcErrorBody(err: ServiceError, requestId: string, publicUrl: string, path?: string) {
  const code = toTRPCError(err).code;
  return {
    error: {
      message: err.message,
      code: TRPC_ERROR_CODES_BY_KEY[code],
      data: { code, httpStatus: err.status, ...(path ? { path } : {}), apiError: errorBody(err, requestId, publicUrl) },
    },
  };
}

export function sendTrpcError(res: ServerResponse, err: ServiceError, requestId: string, publicUrl: string, headers: Record<string, string> = {}, path?: string): void {
  if (res.headersSent) return void res.end();
  res.statusCode = err.status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('X-Request-Id', requestId);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.end(JSON.stringify(trpcErrorBody(err, requestId, publicUrl, path)));
}
