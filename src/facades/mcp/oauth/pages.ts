import type { Response } from 'express';

/** The server-rendered sign-in and consent page of the MCP authorization server; it loads nothing from elsewhere. */
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Headers of every page we render: no framing (clickjacking of the consent button), and a CSP
 * that allows only this page's inline style and form posts to ourselves. Browsers apply
 * form-action to the redirect that follows the post, so the client's redirect target is allowed too.
 */
export function securePage(res: Response, redirectUri?: string): void {
  const back = redirectUri ? formTarget(redirectUri) : '';
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Content-Security-Policy', `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${back ? ` ${back}` : ''}; frame-ancestors 'none'; base-uri 'none'`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
}

/** A CSP source for a redirect URI: its origin, or its scheme for a native app's custom scheme. */
function formTarget(uri: string): string {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  } catch {
    return '';
  }
}

export type EnvChoice = 'auto' | 'sandbox' | 'live';

export interface SignInPage {
  requestId: string;
  csrf: string;
  clientName: string;
  /** A registered id, or the URL of the client's metadata document. */
  clientId: string;
  /** Where the user is sent back to: the host of the redirect URI (or the app's scheme). */
  redirectHost: string;
  askConsent: boolean;
  email?: string;
  env?: EnvChoice;
  error?: string;
}

const ENV_LABELS: [EnvChoice, string][] = [
  ['auto', 'Live data if my account has credits, otherwise the sandbox'],
  ['sandbox', 'Sandbox: free, deterministic test data'],
  ['live', 'Live data, paid from my credits'],
];

/** Who vouches for the name shown: nobody (self-registered), or the site serving the client's document. */
function clientOrigin(clientId: string): string {
  if (/^https?:\/\//.test(clientId)) return `This application is described by a document at <strong>${esc(new URL(clientId).host)}</strong>; its name is not verified by us.`;
  return 'This application registered itself; its name is not verified.';
}

export function renderSignIn(p: SignInPage): string {
  const env = p.env ?? 'auto';
  const envChoices = ENV_LABELS.map(([value, label]) => `<label><input type="radio" name="env" value="${value}"${value === env ? ' checked' : ''}> ${label}</label>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Sign in · Accommodation Data Service</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:420px;margin:3em auto;padding:0 1em;color:#222}
label{display:block;margin:.8em 0 .2em}input[type=email],input[type=password]{width:100%;padding:.5em;box-sizing:border-box}
fieldset{margin-top:1em}.err{background:#fde8e8;color:#8a1c1c;padding:.5em;border-radius:4px}.note{color:#555;font-size:.9em}button{padding:.6em 1.2em;margin-top:1em}</style></head><body>
<h1>Sign in</h1>
<p><strong>${esc(p.clientName)}</strong> asks to use the Accommodation Data Service on your behalf: read-only searches,
availability, prices and reviews.</p>
<p class="note" id="client-note">${clientOrigin(p.clientId)} After you allow access you will be sent back to <strong id="redirect-host">${esc(p.redirectHost)}</strong>.</p>
${p.error ? `<p class="err" role="alert">${esc(p.error)}</p>` : ''}
<form method="post" action="/oauth/sign-in">
<input type="hidden" name="request_id" value="${esc(p.requestId)}"><input type="hidden" name="csrf" value="${esc(p.csrf)}">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" value="${esc(p.email ?? '')}" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<fieldset><legend>Act with</legend>
${envChoices}
</fieldset>
${p.askConsent ? `<label><input type="checkbox" name="consent" value="yes"> Allow ${esc(p.clientName)} to use my account</label>` : ''}
<button type="submit" name="decision" value="allow">Sign in and allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form></body></html>`;
}
