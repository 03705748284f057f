import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import type { Deps } from '../../deps.js';
import { errorBody, ServiceError } from '../../domain/errors.js';
import { lockedMessage, createSignInThrottle } from '../../domain/accounts/sign-in-throttle.js';
import { hashPassword, verifyPassword } from '../../adapters/postgres/accounts/admin.js';
import { appRouter } from '../../router/app-router.js';
import { createContext, type Context } from '../../router/context.js';
import { clientSignal } from '../../router/client-gone.js';
import { clientAddress } from '../client-address.js';
import { toServiceError } from '../../router/errors.js';
import { describeFailure } from '../../router/dependency-errors.js';
import { refuseControlCharacters } from '../../router/control-characters.js';
import { consoleFile } from './static.js';
import { proceduresOf } from '../../router/trpc-internals.js';

const PROCEDURES = proceduresOf(appRouter);

const SESSION_HOURS = 12;
const COOKIE = 'ads_console';

/**
 * Every answer under /console: nothing may load from another origin, nothing may frame the page.
 * Scripts and styles are the build's own files (no inline script); React and uPlot set styles
 * through the DOM, which style-src does not govern.
 */
function secure(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

function cookieValue(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=') || null;
  }
  return null;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 8192) throw new ServiceError('payload_too_large', 'The sign-in body is too large.', { param: 'body' });
    chunks.push(chunk);
  }
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  throw new ServiceError('invalid_request', 'Send {"email","password"} as JSON.', { subCode: 'invalid_json', param: 'body' });
}

/**
 * The developer console: its static build at /console, the session endpoints at /console/session
 * (sign in with the MCP sign-in's e-mail and password, throttled the same way) and its tRPC
 * router at /console/trpc, authenticated by the HttpOnly SameSite=Strict session cookie.
 */
export function createConsoleHandler(deps: Deps) {
  const store = deps.console;
  const throttle = createSignInThrottle(deps.limiter, deps.config.signIn);
  const secureCookie = deps.config.publicUrl.startsWith('https:') ? '; Secure' : '';
  let dummyHash: Promise<string> | null = null;

  function send(res: ServerResponse, status: number, body: unknown): void {
    res.statusCode = status;
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Cache-Control', 'no-store');
    res.end(JSON.stringify(body));
  }
  function fail(res: ServerResponse, err: ServiceError, requestId: string): void {
    if (err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.retryAfterSeconds));
    send(res, err.status, errorBody(err, requestId, deps.config.publicUrl));
  }

  /** A POST from a page of another origin is refused whatever it carries. */
  function sameOrigin(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    return origin === undefined || origin === deps.config.publicUrl || origin === `http://${req.headers.host}` || origin === `https://${req.headers.host}`;
  }

  async function signIn(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const body = await readJson(req);
    refuseControlCharacters(body);
    const email = typeof body.email === 'string' ? body.email : '';
    const password = typeof body.password === 'string' ? body.password : '';
    if (!email) throw new ServiceError('missing_parameter', 'email is required.', { param: 'email' });
    if (!password) throw new ServiceError('missing_parameter', 'password is required.', { param: 'password' });
    const admission = await throttle.admit(email, clientAddress(deps.config, req));
    if (!admission.allowed) throw new ServiceError('rate_limit_exceeded', lockedMessage(admission.retryAfterSeconds), { retryAfterSeconds: admission.retryAfterSeconds });
    const account = await store.credentials(email);
    // Always one scrypt: an unknown e-mail costs as much as a wrong password.
    const ok = (await verifyPassword(password, account?.passwordHash ?? (await (dummyHash ??= hashPassword('no account has this password'))))) && Boolean(account?.passwordHash);
    if (!account || !ok) throw new ServiceError('unauthenticated', 'The e-mail or password is not right.', { param: 'password' });
    await store.sweepExpired(deps.clock.now());
    const expiresAt = new Date(deps.clock.now().getTime() + SESSION_HOURS * 3_600_000);
    const { token, csrf } = await store.openSession(account.accountId, expiresAt);
    res.setHeader('Set-Cookie', `${COOKIE}=${token}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=${SESSION_HOURS * 3600}${secureCookie}`);
    send(res, 200, { signedIn: true, csrf });
  }

  async function route(req: IncomingMessage, res: ServerResponse, path: string, requestId: string): Promise<void> {
    const method = req.method ?? 'GET';
    const token = cookieValue(req, COOKIE);
    if (path === '/console/session') {
      if (method === 'GET') {
        const session = token ? await store.session(token, deps.clock.now()) : null;
        return send(res, 200, session ? { signedIn: true, csrf: session.csrf } : { signedIn: false });
      }
      if (!sameOrigin(req)) throw new ServiceError('permission_denied', 'Cross-origin requests to the console are refused.', { param: 'Origin' });
      if (method === 'POST') return signIn(req, res, requestId);
      if (method === 'DELETE') {
        const session = token ? await store.session(token, deps.clock.now()) : null;
        if (session && req.headers['x-csrf-token'] !== session.csrf) throw new ServiceError('permission_denied', 'The X-CSRF-Token header does not match this session.', { param: 'X-CSRF-Token' });
        if (token) await store.closeSession(token);
        res.setHeader('Set-Cookie', `${COOKIE}=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0${secureCookie}`);
        return send(res, 200, { signedIn: false });
      }
      res.setHeader('Allow', 'GET, POST, DELETE');
      throw new ServiceError('method_not_allowed', `${method} is not allowed on /console/session.`);
    }
    if (path.startsWith('/console/trpc/')) {
      if (method !== 'GET' && !sameOrigin(req)) throw new ServiceError('permission_denied', 'Cross-origin requests to the console are refused.', { param: 'Origin' });
      // AppRouter's `console` part only: the API's procedures take a key, which this face never reads.
      const name = path.slice('/console/trpc/'.length);
      if (!name.startsWith('console.') || !PROCEDURES.has(name)) throw new ServiceError('not_found', `No console procedure ${JSON.stringify(name)}.`);
      const session = token ? await store.session(token, deps.clock.now()) : null;
      const csrf = req.headers['x-csrf-token'];
      const ctx: Context = {
        ...createContext(deps, { transport: 'console', requestId, authorization: null, clientAddress: clientAddress(deps.config, req), signal: clientSignal(res) }),
        console: { store, session, csrfHeader: typeof csrf === 'string' ? csrf : null },
      };
      await nodeHTTPRequestHandler({ router: appRouter, req, res, path: name, allowBatching: false, createContext: () => ctx, responseMeta: () => ({ headers: ctx.res.headers }) });
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') throw new ServiceError('method_not_allowed', `${method} is not allowed on ${path}.`);
    const file = consoleFile(path.slice('/console'.length));
    if (!file) {
      if (path === '/console' || path === '/console/') throw new ServiceError('service_unavailable', 'The console is not built: run `npm run build:console`.');
      throw new ServiceError('not_found', `No console file at ${path}.`);
    }
    res.setHeader('Content-Type', file.type);
    res.setHeader('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    res.end(method === 'HEAD' ? undefined : file.body);
  }

  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const requestId = deps.ids.requestId();
    res.setHeader('X-Request-Id', requestId);
    secure(res);
    // /console without a slash: relative asset URLs need the folder form.
    if (path === '/console') {
      res.statusCode = 308;
      res.setHeader('Location', '/console/');
      return void res.end();
    }
    try {
      await route(req, res, path, requestId);
    } catch (err) {
      if (res.headersSent) return void res.end();
      const failure = toServiceError(err); // a database outage is a 503, anything unknown a 500
      // Through the one failure describer: a failed query's message carries its SQL and parameters.
      if (failure.code === 'internal_error') deps.log.error({ requestId, face: 'console', ...describeFailure(err) }, 'internal error');
      fail(res, failure, requestId);
    }
  };
}
