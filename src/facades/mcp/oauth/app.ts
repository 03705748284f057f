import { timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { Deps } from '../../../deps.js';
import { verifyPassword } from '../../../adapters/postgres/admin.js';
import { createOAuthStore, hashSecret, newSecret } from '../../../adapters/postgres/oauth-store.js';
import { createOAuthProvider, SCOPES } from './provider.js';
import { renderSignIn } from './pages.js';

const CODE_SECONDS = 5 * 60;

function cookie(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

function sameSecret(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The OAuth 2.1 authorization server (spec 5.5) as an Express app mounted at the origin root:
 * RFC 8414 and RFC 9728 metadata, RFC 7591 registration, /authorize, /token, /revoke (the SDK's
 * handlers), and our sign-in and consent form at /oauth/sign-in (CSRF-protected).
 */
export function createOAuthApp(deps: Deps, db: Parameters<typeof createOAuthStore>[0], options: { rateLimit: boolean }) {
  const store = createOAuthStore(db);
  const mcpUrl = `${deps.config.publicUrl}/mcp`;
  const provider = createOAuthProvider(store, deps.clock, mcpUrl);
  const app = express();
  app.disable('x-powered-by');

  // Confidential clients' secrets are stored hashed, so they are checked here, before the SDK.
  app.use(['/token', '/revoke'], express.urlencoded({ extended: false }), async (req: Request, res: Response, next: NextFunction) => {
    const clientId = req.body?.client_id;
    const client = typeof clientId === 'string' ? await store.getClient(clientId) : null;
    if (client?.secretHash && !(typeof req.body.client_secret === 'string' && sameSecret(hashSecret(req.body.client_secret), client.secretHash))) {
      return res.status(401).json({ error: 'invalid_client', error_description: 'Invalid client credentials' });
    }
    next();
  });

  const limits = options.rateLimit ? {} : { rateLimit: false as const };
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(deps.config.publicUrl),
      resourceServerUrl: new URL(mcpUrl),
      scopesSupported: SCOPES,
      resourceName: 'Accommodation Data Service',
      authorizationOptions: limits,
      tokenOptions: limits,
      clientRegistrationOptions: limits,
      revocationOptions: limits,
    }),
  );

  app.post('/oauth/sign-in', express.urlencoded({ extended: false }), async (req: Request, res: Response) => {
    const { request_id: requestId, csrf, email, password, consent, decision } = req.body ?? {};
    const now = deps.clock.now();
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
  });

  return { app, provider, store };
}
