import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/**
 * RFC 6749 section 5.2 error bodies for everything the OAuth endpoints answer, whatever failed:
 * the SDK's handlers describe bad input with a raw zod dump, and a body Express cannot parse
 * would otherwise become an HTML page with a stack trace.
 */

interface ZodIssue {
  path?: (string | number)[];
  message?: string;
}

/** "client_id is required" instead of a pretty-printed list of zod issues; other text unchanged. */
export function shortDescription(description: string): string {
  if (!description.trimStart().startsWith('[')) return description;
  try {
    const [issue] = JSON.parse(description) as ZodIssue[];
    if (!issue) return 'The request is malformed.';
    const field = issue.path?.length ? issue.path.join('.') : 'request';
    const message = (issue.message ?? 'is invalid').replace(/^Invalid input: /, '');
    if (/received undefined/.test(message)) return `${field} is required`;
    return `${field}: ${message}`.slice(0, 200);
  } catch {
    return 'The request is malformed.';
  }
}

/**
 * The request's `state`, when it is one we may echo (plain text, at most 1024 characters). The
 * SDK's /authorize drops it from the error redirect when another parameter (code_challenge,
 * code_challenge_method) fails its parsing; RFC 6749 4.1.2.1 requires it back.
 */
function requestState(req: Request): string | null {
  const source = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown> | undefined;
  const state = source?.state;
  return typeof state === 'string' && state.length <= 1024 && !/[\u0000-\u001f\u007f]/.test(state) ? state : null;
}

/** Shortens `error_description` in JSON answers and in error redirects (`/authorize`), which keep the request's `state`. */
export function shortErrors(req: Request, res: Response, next: NextFunction): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (body && typeof body === 'object' && typeof (body as { error_description?: unknown }).error_description === 'string') {
      const b = body as { error_description: string };
      return json({ ...b, error_description: shortDescription(b.error_description) });
    }
    return json(body);
  };
  const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
  res.redirect = ((status: number, url: string) => {
    try {
      const target = new URL(url);
      const description = target.searchParams.get('error_description');
      if (description) target.searchParams.set('error_description', shortDescription(description));
      const state = requestState(req);
      if (target.searchParams.has('error') && !target.searchParams.has('state') && state !== null) target.searchParams.set('state', state);
      return redirect(status, target.href);
    } catch {
      return redirect(status, url);
    }
  }) as Response['redirect'];
  next();
}

/** The last handler of the OAuth app: bad bodies are 4xx RFC 6749 errors, anything else a logged 500. */
export function oauthErrorHandler(log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const e = err as { status?: unknown; type?: unknown };
    const status = typeof e.status === 'number' && e.status >= 400 && e.status < 500 ? e.status : 500;
    if (res.headersSent) return void res.end();
    res.setHeader('Cache-Control', 'no-store');
    if (status === 500) {
      log.error({ err, path: req.path }, 'OAuth endpoint failed');
      return void res.status(500).json({ error: 'server_error', error_description: 'Something went wrong on our side.' });
    }
    const error = req.path === '/register' ? 'invalid_client_metadata' : 'invalid_request';
    const description = e.type === 'entity.parse.failed' ? 'The body is not valid JSON.' : e.type === 'entity.too.large' ? 'The body is too large.' : 'The request body could not be read.';
    res.status(status).json({ error, error_description: description });
  };
}
