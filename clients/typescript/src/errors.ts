import type { ErrorBody, ErrorCode, SubCode } from './types.js';

/** The error envelope's fields, for a caller building an ApiError itself. */
export interface ApiErrorInit {
  status: number;
  code: ErrorCode | (string & {});
  message: string;
  subCode?: SubCode | (string & {}) | undefined;
  param?: string | undefined;
  requestId?: string | undefined;
  retryable: boolean;
  docUrl?: string | undefined;
  retryAfterSeconds?: number | undefined;
}

/**
 * Every error answer of the service, thrown by every method: the HTTP status beside the body's
 * code, sub-code, parameter at fault, request id (quote it when asking for help) and whether the
 * same call may succeed later. `status` is 0 for a job that failed: its poll itself succeeded.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | (string & {});
  readonly subCode: SubCode | (string & {}) | undefined;
  readonly param: string | undefined;
  readonly requestId: string | undefined;
  readonly retryable: boolean;
  readonly docUrl: string | undefined;
  /** The Retry-After the answer carried, in seconds. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.subCode = init.subCode;
    this.param = init.param;
    this.requestId = init.requestId;
    this.retryable = init.retryable;
    this.docUrl = init.docUrl;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** From an error answer; a body that is not the service's envelope (a proxy's page) still gives one. */
  static fromResponse(status: number, body: unknown, requestId: string | null, retryAfterSeconds: number | undefined): ApiError {
    const error = isErrorBody(body) ? body.error : undefined;
    if (!error) {
      return new ApiError({ status, code: 'unexpected_response', message: `HTTP ${status} without the service's error envelope.`, requestId: requestId ?? undefined, retryable: status === 429 || status >= 500, retryAfterSeconds });
    }
    return new ApiError({ status, ...error, requestId: error.requestId ?? requestId ?? undefined, retryAfterSeconds });
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}
