import { timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Clock } from '../../../domain/ports/system.js';
import type { KeyEnv } from '../../../domain/accounts/plans.js';
import { lockedMessage, type SignInThrottle } from '../../../domain/accounts/sign-in-throttle.js';
import { hashPassword, verifyPassword } from '../../../adapters/postgres/accounts/admin.js';
import { hashSecret, newSecret, type OAuthStore } from '../../../adapters/postgres/oauth/oauth-store.js';
import { renderSignIn, securePage, type EnvChoice } from './pages.js';
import { redirectTarget } from './redirect-uris.js';
import { withIssuer } from './issuer.js';

const CODE_SECONDS = 5 * 60;
/** Password tries on one pending request; past this the request is dropped and must start again. */
export const MAX_TRIES_PER_REQUEST = 5;

function cookie(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) {
      try {
        return decodeURIComponent(v.join('='));
      } catch {
        return null; // a malformed cookie is no cookie
      }
    }
  }
  return null;
}

export function sameSecret(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const envChoice = (v: unknown): EnvChoice => (v === 'sandbox' || v === 'live' ? v : 'auto');

/**
 * POST /oauth/sign-in: the form rendered by `authorize`. Checks the pending request and its
 * double-submit CSRF token (hidden field = cookie = stored hash), then either redirects back with
 * `access_denied`, re-renders with an error (wrong password, consent not given, too many tries),
 * or records consent and redirects with a single-use authorization code bound to the key kind
 * chosen on the page. Unknown e-mails and accounts without a password are checked against a dummy
 * hash, so the answer takes as long as for a real account.
 */
export function signInHandler(store: OAuthStore, clock: Clock, throttle: SignInThrottle, clientName: (clientId: string) => Promise<string>, issuer: string) {
  let dummyHash: Promise<string> | null = null;
  const dummy = () => (dummyHash ??= hashPassword(newSecret('').value));

  return async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const [requestId, csrf, email, password] = [text(body.request_id), text(body.csrf), text(body.email), text(body.password)];
    const now = clock.now();
    const pending = requestId ? await store.takePending(requestId, now) : null;
    securePage(res, pending?.redirectUri);
    if (!pending) return res.status(400).type('html').send('<p>This sign-in link has expired or was used up. Start again from your application.</p>');
    const cookieCsrf = cookie(req, 'ads_csrf');
    if (!csrf || !cookieCsrf || !sameSecret(csrf, cookieCsrf) || !sameSecret(hashSecret(csrf), pending.csrfHash)) {
      return res.status(403).type('html').send('<p>The form could not be verified. Start again from your application.</p>');
    }
    const back = withIssuer(new URL(pending.redirectUri), issuer);
    if (pending.state) back.searchParams.set('state', pending.state);
    if (body.decision === 'deny') {
      await store.dropPending(pending.id);
      back.searchParams.set('error', 'access_denied');
      return res.redirect(302, back.toString());
    }
    const env = envChoice(body.env);
    const name = await clientName(pending.clientId);
    const again = (status: number, error: string) =>
      res.status(status).type('html').send(renderSignIn({ requestId: pending.id, csrf, clientId: pending.clientId, clientName: name, redirectHost: redirectTarget(pending.redirectUri), askConsent: true, email: email ?? '', env, error }));

    // Express's req.ip: the socket's peer, or the client a trusted proxy forwarded for (TRUSTED_PROXIES).
    const admission = await throttle.admit(email ?? '', req.ip ?? req.socket.remoteAddress ?? 'unknown');
    if (!admission.allowed) {
      res.setHeader('Retry-After', String(admission.retryAfterSeconds));
      return again(429, lockedMessage(admission.retryAfterSeconds));
    }
    if ((await store.countAttempt(pending.id)) > MAX_TRIES_PER_REQUEST) {
      await store.dropPending(pending.id);
      return res.status(429).type('html').send('<p>Too many tries on this sign-in. Start again from your application.</p>');
    }
    const account = email ? await store.account(email) : null;
    // Always one scrypt: a missing account or password costs as much as a wrong password.
    const passwordOk = (await verifyPassword(password ?? '', account?.passwordHash ?? (await dummy()))) && Boolean(account?.passwordHash);
    if (!account || !passwordOk) return again(401, 'The e-mail or password is not right.');
    if (body.consent !== 'yes' && !(await store.hasConsent(account.id, pending.clientId))) {
      return again(400, `You did not tick "Allow ${name} to use my account". Tick it to allow access, or choose Deny.`);
    }

    await store.recordConsent(account.id, pending.clientId);
    const keyEnv: KeyEnv = env === 'auto' ? (account.creditBalance > 0 ? 'live' : 'sandbox') : env;
    const code = newSecret('mcp_ac_');
    await store.saveCode(code.hash, {
      clientId: pending.clientId,
      accountId: account.id,
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
      scopes: pending.scopes,
      resource: pending.resource,
      keyEnv,
      expiresAt: new Date(now.getTime() + CODE_SECONDS * 1000),
    });
    await store.dropPending(pending.id);
    back.searchParams.set('code', code.value);
    res.redirect(302, back.toString());
  };
}
