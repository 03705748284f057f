import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { createOAuthMetadata, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import type { Deps } from '../../../deps.js';
import { createSignInThrottle } from '../../../domain/accounts/sign-in-throttle.js';
import { hashSecret } from '../../../adapters/postgres/oauth/oauth-store.js';
import { oauthErrorHandler, shortErrors } from './errors.js';
import { createOAuthProvider } from './provider.js';
import { SCOPES } from './scopes.js';
import { issuerOnRedirects } from './issuer.js';
import { sameSecret, signInHandler } from './sign-in.js';
import { controlCharacterField } from '../../../router/control-characters.js';

/**
 * The OAuth 2.1 authorization server (spec 5.5) as an Express app mounted at the origin root:
 * RFC 8414 and RFC 9728 metadata, RFC 7591 registration, /authorize, /token, /revoke (the SDK's
 * handlers), and our sign-in and consent form at /oauth/sign-in (CSRF-protected, throttled).
 * Every error it answers is an RFC 6749 JSON body (or the page's own 4xx), never a stack trace.
 */
export function createOAuthApp(deps: Deps, options: { rateLimit: boolean }) {
  const store = deps.oauth;
  const mcpUrl = `${deps.config.publicUrl}/mcp`;
  const provider = createOAuthProvider(store, deps.clock, mcpUrl, deps.clientMetadata);
  const clientName = (id: string) => Promise.resolve(provider.clientsStore.getClient(id)).then((c) => c?.client_name ?? id, () => id);
  const app = express();
  app.disable('x-powered-by');
  app.use(shortErrors);
  // The sign-in limits count per client address: behind our proxies, the one they forwarded for.
  if (deps.config.trustedProxies.length > 0) app.set('trust proxy', deps.config.trustedProxies);

  // Control characters in any parameter or field are refused before any handler (issue 23): a
  // NUL byte must not reach PostgreSQL, and the answer names the field, in the RFC error each
  // endpoint answers. /authorize with a known client and redirect URI reports its errors to that
  // redirect URI (RFC 6749 4.1.2.1), so only those two are judged here; the sign-in form answers
  // its own 4xx page for a broken field (sign-in.ts).
  app.use(express.urlencoded({ extended: false }), express.json(), (req: Request, res: Response, next: NextFunction) => {
    if (req.path === '/oauth/sign-in') return next();
    const authorize = req.path === '/authorize';
    const query = authorize ? { client_id: req.query.client_id, redirect_uri: req.query.redirect_uri } : req.query;
    const field = controlCharacterField(query) ?? controlCharacterField(req.body);
    if (!field) return next();
    const error = req.path === '/register' ? 'invalid_client_metadata' : authorize && field === 'client_id' ? 'invalid_client' : 'invalid_request';
    res.status(400).json({ error, error_description: `${field} contains a control character (such as NUL or a line break)` });
  });

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
  const routerOptions = {
    provider,
    issuerUrl: new URL(deps.config.publicUrl),
    resourceServerUrl: new URL(mcpUrl),
    scopesSupported: [...SCOPES],
    resourceName: 'Accommodation Data Service',
    authorizationOptions: limits,
    tokenOptions: limits,
    clientRegistrationOptions: limits,
    revocationOptions: limits,
  };
  // The SDK's RFC 8414 document, plus what it cannot express: Client ID Metadata Document support
  // and RFC 9207's `iss` on every authorization response.
  const metadata = { ...createOAuthMetadata(routerOptions), client_id_metadata_document_supported: true, authorization_response_iss_parameter_supported: true };
  app.use('/.well-known/oauth-authorization-server', metadataHandler(metadata));
  app.use('/authorize', issuerOnRedirects(metadata.issuer));
  app.use(mcpAuthRouter(routerOptions));

  app.post('/oauth/sign-in', express.urlencoded({ extended: false }), signInHandler(store, deps.clock, createSignInThrottle(deps.limiter, deps.config.signIn), clientName, metadata.issuer));
  const answerError = oauthErrorHandler(deps.log);
  app.use(answerError);

  /**
   * Serves one request; `notFound` answers a path no route here serves (a `/.well-known/oauth-*`
   * name we do not publish), which Express would answer with its HTML page.
   */
  function serve(req: IncomingMessage, res: ServerResponse, notFound: () => void): void {
    // Express calls this with an error only when a handler failed past our error handler.
    app(req as Request, res as Response, (err?: unknown) => (err === undefined ? notFound() : answerError(err, req as Request, res as Response, () => {})));
  }

  return { serve, provider, store };
}
