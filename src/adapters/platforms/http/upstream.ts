import { Pool } from 'undici';
import type { Platform } from '../../../domain/platforms.js';
import { LegAbandoned, LegFailure, UpstreamFormatError } from '../../../domain/ports/platform.js';
import { isPlatformTransportFault, PlatformServerError } from './transport-faults.js';

export interface UpstreamOptions {
  platform: Platform;
  /** The platform's configured origin (and optional path prefix); never a user-supplied URL. */
  baseUrl: string;
  /** Per attempt. The leg's own deadline (its AbortSignal) bounds all attempts together. */
  timeoutMs: number;
  /** Extra attempts after a 5xx or a network error. */
  retries: number;
  /** Requests in flight to this platform at most; more wait their turn. */
  concurrency: number;
  headers?: Record<string, string>;
}

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  /** Path below baseUrl, built by the adapter from validated ids; starts with '/'. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** 'html': the answer is a web page, returned as its text (challenge pages still block). Default JSON. */
  as?: 'json' | 'html';
}

/** The platform answered that the thing asked for does not exist (404). */
export class UpstreamNotFound extends Error {}

export interface UpstreamClient {
  json(req: UpstreamRequest, signal: AbortSignal): Promise<unknown>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Markers of anti-bot pages that arrive with a 200 as often as with a 403. */
const CHALLENGE = /captcha|px-captcha|cf-chl|challenge-platform|access denied|are you a robot|unusual traffic/i;

function backoffMs(attempt: number): number {
  return Math.round(150 * 2 ** attempt * (0.5 + Math.random()));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/** Why our signal stopped a request, as a leg the platform is not to blame for. */
function abandoned(platform: Platform, reason: unknown): LegAbandoned {
  if (reason instanceof LegAbandoned) return reason;
  return new LegAbandoned(`${platform} was not waited for: ${reason instanceof Error ? reason.message : String(reason)}`);
}

/** A web page's text, unless it is an anti-bot page (blocked, not a format change). */
function pageText(platform: Platform, text: string): string {
  if (CHALLENGE.test(text.slice(0, 20_000)) && !/application\/ld\+json/i.test(text)) throw new LegFailure('blocked', `${platform} answered with a challenge page`);
  return text;
}

/**
 * HTTP to one platform (undici Pool): timeouts, capped retries with jittered backoff for 5xx and
 * network errors, a concurrency cap, and blocked answers (403, 429, challenge pages) reported as
 * `blocked` legs without retrying. It only ever talks to its configured origin.
 */
export function createUpstreamClient(o: UpstreamOptions): UpstreamClient {
  const base = new URL(o.baseUrl);
  const prefix = base.pathname.replace(/\/$/, '');
  const pool = new Pool(base.origin, { connections: o.concurrency, pipelining: 1, headersTimeout: o.timeoutMs, bodyTimeout: o.timeoutMs });

  async function attempt(req: UpstreamRequest, signal: AbortSignal): Promise<unknown> {
    if (!req.path.startsWith('/')) throw new Error(`upstream path must start with "/": ${req.path}`);
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) search.set(k, String(v));
    const res = await pool.request({
      method: req.method,
      path: `${prefix}${req.path}${search.size ? `?${search}` : ''}`,
      headers: { accept: req.as === 'html' ? 'text/html' : 'application/json', ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal,
    });
    const text = await res.body.text();
    if (text.length > MAX_BODY_BYTES) throw new LegFailure('failed', `${o.platform} answered more than ${MAX_BODY_BYTES} bytes`);
    if (res.statusCode === 403 || res.statusCode === 429) throw new LegFailure('blocked', `${o.platform} refused the request (HTTP ${res.statusCode})`);
    if (res.statusCode === 404) throw new UpstreamNotFound();
    if (res.statusCode >= 500) throw new PlatformServerError(res.statusCode);
    if (res.statusCode >= 300) throw new LegFailure('failed', `${o.platform} answered HTTP ${res.statusCode}`);
    if (req.as === 'html') return pageText(o.platform, text);

    try {
      return JSON.parse(text);
    } catch {
      if (CHALLENGE.test(text.slice(0, 20_000))) throw new LegFailure('blocked', `${o.platform} answered with a challenge page`);
      throw new UpstreamFormatError(`${o.platform} answered something that is neither JSON nor a challenge page`);
    }
  }

  return {
    async json(req, signal) {
      let failure: LegFailure | null = null;
      for (let n = 0; n <= o.retries; n++) {
        try {
          if (n > 0) await sleep(backoffMs(n - 1), signal);
          return await attempt(req, signal);
        } catch (err) {
          // Stopped on our side (the leg's deadline): the platform's earlier failure
          // in this leg, if any, is still its fault; otherwise the breaker must hear nothing.
          if (signal.aborted) throw failure?.platformFault ? failure : abandoned(o.platform, signal.reason);
          // Answers of the platform (blocked, not found, unreadable) are final.
          if (err instanceof LegFailure || err instanceof UpstreamNotFound) throw err;
          // 5xx and network errors: the platform itself is failing, which is what a breaker counts.
          failure = new LegFailure('failed', `${o.platform} failed after ${n + 1} attempt(s): ${(err as Error).message}`, { platformFault: isPlatformTransportFault(err) });
        }
      }
      throw failure!;
    },
    close: () => pool.close(),
  };
}
