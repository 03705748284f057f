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
  max_credits_exceeded: 402,
  permission_denied: 403,
  not_found: 404,
  listing_not_found: 404,
  job_not_found: 404,
  method_not_allowed: 405,
  idempotency_key_in_use: 409,
  gone: 410,
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

/**
 * Failures an operator meets (admin CLI, start-up), apart from the API's codes above: each is
 * printed as one JSON object `{ "error": { code, message, hint? } }` and ends the process with
 * this exit code (2 for a malformed command line, 1 otherwise), so scripts can branch on `code`.
 */
export const OPERATOR_ERROR_EXIT = {
  usage: 2,
  invalid_setting: 1,
  email_taken: 1,
  account_not_found: 1,
  key_not_found: 1,
  insufficient_balance: 1,
  port_in_use: 1,
  embedded_port_in_use: 1,
  embedded_binaries_broken: 1,
  embedded_permission_denied: 1,
  embedded_start_failed: 1,
  database_unreachable: 1,
  redis_unreachable: 1,
  internal_error: 1,
} as const;

export type OperatorErrorCode = keyof typeof OPERATOR_ERROR_EXIT;

export class OperatorError extends Error {
  constructor(
    readonly code: OperatorErrorCode,
    message: string,
    /** What to change or run to get past it. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'OperatorError';
  }

  get exitCode(): number {
    return OPERATOR_ERROR_EXIT[this.code];
  }

  toJSON(): { error: { code: OperatorErrorCode; message: string; hint?: string } } {
    return { error: { code: this.code, message: this.message, ...(this.hint ? { hint: this.hint } : {}) } };
  }
}

/** Any failure as an OperatorError: unknown ones keep their message under `internal_error`. */
export function asOperatorError(err: unknown): OperatorError {
  if (err instanceof OperatorError) return err;
  // drizzle wraps driver errors in a message carrying the query and its parameters: keep the cause.
  const cause = (err as { cause?: unknown }).cause;
  const message = cause instanceof Error ? cause.message : err instanceof Error ? err.message : String(err);
  if (message.startsWith('Invalid setting')) {
    // Every refusal says what to change (README, "Starting, stopping, health"): the setting it names.
    const setting = /^Invalid setting ([A-Z0-9_.]+)/.exec(message)?.[1] ?? 'the setting named';
    return new OperatorError('invalid_setting', message, `set ${setting} in the environment or in .env (README, "Configuration", lists every setting and its default)`);
  }
  if (message.includes('unsupported startup parameter')) {
    // pgbouncer refusing the server settings our pools send at connect: it is a transaction pool.
    return new OperatorError('invalid_setting', `DATABASE_URL: the server refused this process's start-up settings (${message}): a connection pooler such as pgbouncer`, 'set DATABASE_DIRECT_URL to PostgreSQL itself; DATABASE_URL is then used as a transaction pool (README, Production, "Behind pgbouncer")');
  }
  return new OperatorError('internal_error', message || 'unknown failure');
}
