import type { NextFunction, Request, Response } from 'express';

/**
 * RFC 9207: every authorization response, success or error, names the issuer that sent it
 * (`iss`, exactly the metadata's `issuer`), so a client talking to several authorization servers
 * cannot be sent one server's code in another's name (mix-up attacks). The metadata says so with
 * `authorization_response_iss_parameter_supported: true`.
 */
export function withIssuer(redirectUri: URL, issuer: string): URL {
  redirectUri.searchParams.set('iss', issuer);
  return redirectUri;
}

/**
 * The same for the redirects the SDK's /authorize handler sends on its own (an invalid scope, a
 * malformed request after the redirect URI was checked): they leave through `res.redirect`.
 */
export function issuerOnRedirects(issuer: string) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
    res.redirect = ((statusOrUrl: number | string, url?: string) => {
      const [status, target] = typeof statusOrUrl === 'number' ? [statusOrUrl, url!] : [302, statusOrUrl];
      redirect(status, URL.canParse(target) ? withIssuer(new URL(target), issuer).href : target);
    }) as Response['redirect'];
    next();
  };
}
