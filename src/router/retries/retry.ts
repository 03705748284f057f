/**
 * What a REST caller asked for about retries and waiting (issue 17), read from the request by
 * the REST face. MCP and tRPC calls carry none of it: each of their calls runs and bills on its own.
 */
export interface RetryRequest {
  /** The Idempotency-Key header as sent (checked by the pipeline), or null. */
  idempotencyKey: string | null;
  /** `Prefer: wait=N`, already capped; null when not asked. */
  waitSeconds: number | null;
  /** The callbackUrl parameter as sent (checked by the pipeline), or undefined. */
  callbackUrl: unknown;
}

/** The Idempotency-Key this request holds, once claimed; `stored` when its answer is saved. */
export interface IdempotencyClaim {
  accountId: string;
  key: string;
  requestId: string;
  stored: boolean;
}

/** RFC 7240 `wait` is capped: no request holds its socket longer than this. */
export const MAX_WAIT_SECONDS = 30;
