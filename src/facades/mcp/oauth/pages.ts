/** The server-rendered sign-in and consent page of the MCP authorization server; it loads nothing from elsewhere. */
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface SignInPage {
  requestId: string;
  csrf: string;
  clientName: string;
  askConsent: boolean;
  error?: string;
}

export function renderSignIn(p: SignInPage): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Sign in · Accommodation Data Service</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:420px;margin:3em auto;padding:0 1em;color:#222}
label{display:block;margin:.8em 0 .2em}input[type=email],input[type=password]{width:100%;padding:.5em;box-sizing:border-box}
.err{background:#fde8e8;color:#8a1c1c;padding:.5em;border-radius:4px}button{padding:.6em 1.2em;margin-top:1em}</style></head><body>
<h1>Sign in</h1>
<p><strong>${esc(p.clientName)}</strong> asks to use the Accommodation Data Service on your behalf: read-only searches,
availability, prices and reviews, paid from your account's credits.</p>
${p.error ? `<p class="err" role="alert">${esc(p.error)}</p>` : ''}
<form method="post" action="/oauth/sign-in">
<input type="hidden" name="request_id" value="${esc(p.requestId)}"><input type="hidden" name="csrf" value="${esc(p.csrf)}">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
${p.askConsent ? `<label><input type="checkbox" name="consent" value="yes"> Allow ${esc(p.clientName)} to use my account</label>` : ''}
<button type="submit" name="decision" value="allow">Sign in and allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form></body></html>`;
}
