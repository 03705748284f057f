import { errorAnchor, type SubCode } from './error-catalogue.js';

/**
 * The closed set of error codes the service answers with (spec section 7, design.md section 3).
 * Every face maps a ServiceError through this one table; a code's HTTP status is never decided
 * anywhere else.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  missing_parameter: 400,
  mutually_exclusive_params: 400,
  invalid_listing_url: 400,
  invalid_listing_id: 400,
  limit_out_of_range: 400,
  invalid_cursor: 400,
  unauthenticated: 401,
  credit_balance_too_low: 402,
  permission_denied: 403,
  not_found: 404,
  listing_not_found: 404,
  job_not_found: 404,
  method_not_allowed: 405,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limit_exceeded: 429,
  internal_error: 500,
  upstream_format_error: 502,
  upstream_unavailable: 503,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** Codes a client may retry unchanged and expect a different outcome. */
const RETRYABLE: ReadonlySet<string> = new Set(['rate_limit_exceeded', 'internal_error', 'upstream_unavailable', 'idempotency_key_in_use', 'service_unavailable']);

export function isRetryable(code: ErrorCode): boolean {
  return RETRYABLE.has(code);
}

export interface ServiceErrorInit {
  subCode?: SubCode | undefined;
  param?: string;
  retryAfterSeconds?: number;
}

/** A failure the client is told about. Anything else that escapes becomes `internal_error`. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly subCode: SubCode | undefined;
  readonly param: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, init: ServiceErrorInit = {}) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.subCode = init.subCode;
    this.param = init.param;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  get retryable(): boolean {
    return isRetryable(this.code);
  }
}

/** The error body of design.md section 3, minus transport headers. */
export interface ErrorBody {
  error: {
    code: ErrorCode;
    subCode?: string;
    message: string;
    param?: string;
    requestId: string;
    retryable: boolean;
    docUrl: string;
  };
}

export function errorBody(err: ServiceError, requestId: string, docsBaseUrl: string): ErrorBody {
  return {
    error: {
      code: err.code,
      ...(err.subCode ? { subCode: err.subCode } : {}),
      message: err.message,
      ...(err.param ? { param: err.param } : {}),
      requestId,
      retryable: err.retryable,
      docUrl: `${docsBaseUrl}/docs/errors#${errorAnchor(err.code, err.subCode)}`,
    },
  };
}

/** The one 401 body: missing, malformed, unknown and revoked keys must be indistinguishable. */
export function unauthenticated(): ServiceError {
  return new ServiceError('unauthenticated', 'Missing or invalid API key. Send "Authorization: Bearer <key>".');
}
