import { ApiError } from './errors.js';
import { sleep, type FetchLike } from './runtime.js';

export interface TransportOptions {
  apiKey: string;
  /** Ends with the version segment, e.g. https://api.example.com/v1. */
  apiUrl: string;
  fetch: FetchLike;
  maxRetries: number;
  maxRetryWaitSeconds: number;
}

export interface Sent {
  path: string;
  query?: object;
  headers?: Record<string, string>;
}

export interface Received {
  status: number;
  body: unknown;
  header(name: string): string | null;
}

/**
 * One logical call: the request, sent again with the same headers (so the same Idempotency-Key)
 * after a 429, a retryable 503 or 409, or a network failure, waiting what Retry-After says.
 * A wait longer than `maxRetryWaitSeconds` is not waited: the error is thrown at once.
 */
export async function send(o: TransportOptions, req: Sent): Promise<Received> {
  const url = o.apiUrl + req.path + queryString(req.query ?? {});
  const headers = { Accept: 'application/json', Authorization: `Bearer ${o.apiKey}`, ...req.headers };
  for (let attempt = 0; ; attempt++) {
    let status: number;
    let text: string;
    let header: (name: string) => string | null;
    try {
      const res = await o.fetch(url, { method: 'GET', headers });
      status = res.status;
      header = (name) => res.headers.get(name);
      text = await res.text();
    } catch (err) {
      // Nothing was answered: safe to send again, the Idempotency-Key guards against a double run.
      if (attempt >= o.maxRetries) throw err;
      await sleep(backoffSeconds(attempt));
      continue;
    }
    const body = parseJson(text);
    if (status < 400) return { status, body, header };
    const error = ApiError.fromResponse(status, body, header('x-request-id'), retryAfterSeconds(header('retry-after')));
    const wait = error.retryAfterSeconds ?? backoffSeconds(attempt);
    if (!isRetried(error) || attempt >= o.maxRetries || wait > o.maxRetryWaitSeconds) throw error;
    await sleep(wait);
  }
}

/** 429 always; 503 and 409 (a retry overtook a stalled first attempt) when the body says so. */
function isRetried(e: ApiError): boolean {
  return e.status === 429 || (e.retryable && (e.status === 503 || e.status === 409));
}

function backoffSeconds(attempt: number): number {
  return Math.min(8, 0.5 * 2 ** attempt);
}

/** Retry-After is delay-seconds or an HTTP date (RFC 9110 10.2.3). */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return text;
  }
}

/** Arrays go comma-separated, as every array parameter of the API accepts them. */
export function queryString(query: object): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.map((v) => encodeURIComponent(String(v))).join(',') : encodeURIComponent(String(value));
    parts.push(`${encodeURIComponent(name)}=${text}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
