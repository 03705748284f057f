import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
// Types flow from the server's router: a change to a procedure's output breaks this project's type-check.
import type { ConsoleRouter } from '../../src/router/console/console-router.js';

/** The session's CSRF token, sent as a header on every call (the cookie itself is HttpOnly). */
let csrf = '';
export const setCsrf = (token: string) => {
  csrf = token;
};

export const api = createTRPCClient<ConsoleRouter>({
  links: [httpLink({ url: '/console/trpc', headers: () => ({ 'X-CSRF-Token': csrf }) })],
});

export interface SessionState {
  signedIn: boolean;
  csrf?: string;
}

async function session(method: 'GET' | 'POST' | 'DELETE', body?: unknown): Promise<SessionState> {
  const res = await fetch('/console/session', {
    method,
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as SessionState & { error?: { message: string } };
  if (!res.ok) throw new Error(json.error?.message ?? `HTTP ${res.status}`);
  if (json.csrf) setCsrf(json.csrf);
  return json;
}

export const currentSession = () => session('GET');
export const signIn = (email: string, password: string) => session('POST', { email, password });
export const signOut = () => session('DELETE');

/** The API's own error message, for display. */
export function messageOf(err: unknown): string {
  if (err instanceof TRPCClientError) return (err.data as { apiError?: { error?: { message?: string } } } | undefined)?.apiError?.error?.message ?? err.message;
  return err instanceof Error ? err.message : String(err);
}
