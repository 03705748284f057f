import { ServiceError } from '../domain/errors.js';

/**
 * Failures that mean a dependency of ours (PostgreSQL) cannot be reached or gave up waiting,
 * not a bug: the call is answered 503 `service_unavailable` (retryable, with Retry-After) and the
 * client retries. Recognised on the error or any error in its `cause` chain (drizzle wraps the
 * driver's error).
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ECONNABORTED']);
/** SQLSTATEs: connection exceptions (class 08), shutdown and recovery (57P01-57P03), too many connections, lock and statement timeouts. */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300|55P03|57014)$/;
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|the database system is (starting up|shutting down)/i;

/** Seconds a client should wait before retrying a call refused during an outage. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

function* causes(err: unknown): Generator<unknown> {
  for (let e = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) yield e;
}

export function isDependencyUnavailable(err: unknown): boolean {
  for (const e of causes(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (e instanceof Error && DRIVER_MESSAGES.test(e.message) && !('query' in e)) return true;
  }
  return false;
}

export function serviceUnavailable(): ServiceError {
  return new ServiceError('service_unavailable', 'A service this call needs is unavailable for a moment. Nothing was charged; retry after the Retry-After delay.', {
    retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS,
  });
}

/**
 * What a log line may say about a failure: its class, the driver's error code and, for a failed
 * database query, the query's name (its verb and first table), never its text or parameters (a
 * key lookup's parameter is the key's SHA-256, which is what `api_keys.key_hash` stores).
 */
export function describeFailure(err: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { errorClass: err instanceof Error ? err.constructor.name : typeof err };
  const chain = [...causes(err)];
  const query = chain.find((e): e is { query: string } => !!e && typeof (e as { query?: unknown }).query === 'string');
  if (query) out.query = queryName(query.query);
  const root = chain[chain.length - 1];
  if (root !== err) out.cause = root instanceof Error ? root.constructor.name : typeof root;
  const code = chain.map((e) => (e as { code?: unknown }).code).find((c) => typeof c === 'string');
  if (code) out.code = code;
  // Messages of our own code are safe; a database's message may quote a value, so it is left out.
  if (!query && root instanceof Error) {
    out.message = root.message;
    if (!isDependencyUnavailable(root)) out.stack = root.stack;
  }
  return out;
}

/** `select api_keys`, `update accounts`, `with credit_ledger`: enough to find the call site. */
export function queryName(sql: string): string {
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? 'query';
  const table = /\b(?:from|into|update|join)\s+"?(\w+)"?/i.exec(sql)?.[1];
  return table ? `${verb} ${table}` : verb;
}
