import { timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Clock } from '../../../domain/ports.js';
import { verifyPassword } from '../../../adapters/postgres/admin.js';
import { hashSecret, newSecret, type OAuthStore } from '../../../adapters/postgres/oauth-store.js';
import { renderSignIn } from './pages.js';

const CODE_SECONDS = 5 * 60;

function cookie(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

export function sameSecret(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * POST /oauth/sign-in: the form rendered by `authorize`. Checks the pending request and its
 * double-submit CSRF token (hidden field = cookie = stored hash), then either redirects back with
 * `access_denied`, re-renders with an error (wrong password, consent not given), or records
 * consent and redirects with a single-use authorization code.
 */
export function signInHandler(store: OAuthStore, clock: Clock) {
  return async (req: Request, res: Response) => {
    const { request_id: requestId, csrf, email, password, consent, decision } = req.body ?? {};
    const now = clock.now();
    const pending = typeof requestId === 'string' ? await store.takePending(requestId, now) : null;
    res.setHeader('Cache-Control', 'no-store');
    if (!pending) return res.status(400).type('html').send('<p>This sign-in link has expired. Start again from your application.</p>');
    const cookieCsrf = cookie(req, 'ads_csrf');
    if (typeof csrf !== 'string' || !cookieCsrf || !sameSecret(csrf, cookieCsrf) || !sameSecret(hashSecret(csrf), pending.csrfHash)) {
      return res.status(403).type('html').send('<p>The form could not be verified. Start again from your application.</p>');
    }
    const back = new URL(pending.redirectUri);
    if (pending.state) back.searchParams.set('state', pending.state);
    if (decision === 'deny') {
      await store.dropPending(pending.id);
      back.searchParams.set('error', 'access_denied');
      return res.redirect(302, back.toString());
    }
    const clientName = String(((await store.getClient(pending.clientId))?.metadata.client_name as string | undefined) ?? pending.clientId);
    const again = (status: number, error: string) => res.status(status).type('html').send(renderSignIn({ requestId: pending.id, csrf, clientName, askConsent: true, error }));
    const account = typeof email === 'string' ? await store.account(email) : null;
    const passwordOk = account?.passwordHash && typeof password === 'string' ? await verifyPassword(password, account.passwordHash) : false;
    if (!account || !passwordOk) return again(401, 'The e-mail or password is not right.');
    if (consent !== 'yes' && !(await store.hasConsent(account.id, pending.clientId))) return again(400, 'Tick the box to allow access, or choose Deny.');

    await store.recordConsent(account.id, pending.clientId);
    const code = newSecret('mcp_ac_');
    await store.saveCode(code.hash, {
      clientId: pending.clientId,
      accountId: account.id,
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
      scopes: pending.scopes,
      resource: pending.resource,
      expiresAt: new Date(now.getTime() + CODE_SECONDS * 1000),
    });
    await store.dropPending(pending.id);
    back.searchParams.set('code', code.value);
    res.redirect(302, back.toString());
    };
}
