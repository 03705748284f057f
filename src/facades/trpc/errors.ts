import { errorAnchor } from '../../domain/error-catalogue.js';
import type { ServerResponse } from 'node:http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { errorBody, type ErrorBody, type ServiceError } from '../../domain/errors.js';
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

/**
 * The adapter answers some errors (media type, malformed input) before it builds our context, as
 * a streamed text/plain body: error bodies are buffered here, stamped with this request's id and
 * the docs base, and sent as JSON.
 */
export function stampErrorBodies(res: ServerResponse, requestId: string, publicUrl: string): void {
  const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  const chunks: Buffer[] = [];
  const hold = (chunk: unknown) => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (res.statusCode < 400) return write(chunk, ...rest);
    hold(chunk);
    return true;
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown) => {
    if (res.statusCode < 400) return end(chunk);
    hold(chunk);
    let text = Buffer.concat(chunks).toString('utf8');
    try {
      const body = JSON.parse(text) as { error?: { data?: { apiError?: ErrorBody } } };
      const apiError = body.error?.data?.apiError?.error;
      if (apiError) {
        apiError.requestId = requestId;
        apiError.docUrl = `${publicUrl}/docs/errors#${errorAnchor(apiError.code, apiError.subCode)}`;
      }
      text = JSON.stringify(body);
    } catch {
      // not JSON: sent as it came
    }
    if (!res.headersSent) {
      res.setHeader('Content-Type', 'application/json');
      res.removeHeader('Content-Length');
    }
    return end(text);
  }) as ServerResponse['end'];
}
