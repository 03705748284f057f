import express, { type NextFunction, type Request, type Response } from 'express';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { Deps } from '../../../deps.js';
import { createOAuthStore, hashSecret } from '../../../adapters/postgres/oauth-store.js';
import { createOAuthProvider, SCOPES } from './provider.js';
import { sameSecret, signInHandler } from './sign-in.js';

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
  // The sign-in limits count per client address: behind our proxies, the one they forwarded for.
  if (deps.config.trustedProxies.length > 0) app.set('trust proxy', deps.config.trustedProxies);

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

  app.post('/oauth/sign-in', express.urlencoded({ extended: false }), signInHandler(store, deps.clock));

  return { app, provider, store };
}
