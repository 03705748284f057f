import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ServiceError, type ERROR_STATUS, type ErrorCode } from '../domain/errors.js';
import { fromValidation, type ZodLikeIssue } from './validation-errors.js';
import { isDependencyUnavailable, serviceUnavailable } from './dependency-errors.js';
import { invalidText, isInvalidText } from './control-characters.js';

/** Every HTTP status of the error table. */
type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

/**
 * The tRPC code whose HTTP status equals our code's, so the tRPC face reports it too. Keyed by
 * every status of the error table: a code with a new status does not compile until it has its
 * tRPC code here. The REST face never reads this: its status is the ServiceError's own.
 */
const TRPC_CODE: Record<ErrorStatus, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  // tRPC has no 410 code; the error formatter sends our own status as data.httpStatus, which its adapters answer with.
  410: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

function isZodError(e: unknown): e is { issues: ZodLikeIssue[] } {
  return !!e && typeof e === 'object' && Array.isArray((e as { issues?: unknown }).issues);
}

/** Any error as a ServiceError; unknown ones become internal_error with nothing internal in the message. */
export function toServiceError(err: unknown, rawInput?: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  if (isDependencyUnavailable(err)) return serviceUnavailable();
  if (isInvalidText(err)) return invalidText();
  if (err instanceof TRPCError) {
    if (err.cause instanceof ServiceError) return err.cause;
    if (err.code === 'BAD_REQUEST' && isZodError(err.cause)) return fromValidation(err.cause.issues, rawInput);
    if (err.code === 'PARSE_ERROR') return new ServiceError('invalid_request', 'The request body is not valid JSON.', { subCode: 'invalid_json', param: 'body' });
    if (err.code === 'PAYLOAD_TOO_LARGE') return new ServiceError('payload_too_large', 'The request body is too large.', { param: 'body' });
    if (err.code === 'UNSUPPORTED_MEDIA_TYPE') return new ServiceError('unsupported_media_type', 'Send the body as application/json.', { param: 'body' });
    if (err.code === 'NOT_FOUND' && !err.cause) return new ServiceError('not_found', 'No such endpoint.');
    if (err.code === 'METHOD_NOT_SUPPORTED') return new ServiceError('method_not_allowed', 'This method is not allowed here.');
    if (err.code === 'BAD_REQUEST') return new ServiceError('invalid_request', 'The request could not be read (malformed input).', { subCode: 'malformed_input' });
  }
  return new ServiceError('internal_error', 'Something went wrong on our side. Retry, and quote the request id if it persists.');
}

export function toTRPCError(err: ServiceError): TRPCError {
  // A ServiceError subclass may answer a status outside the table: tRPC still needs a code for it.
  return new TRPCError({ code: TRPC_CODE[err.status as ErrorStatus] ?? 'INTERNAL_SERVER_ERROR', message: err.message, cause: err });
}
