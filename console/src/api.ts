import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
// Types flow from AppRouter through the declarations `npm run build:types` emits (dist/types),
// the same a dashboard outside this repository compiles against: a change to a console
// procedure's output breaks this project's type-check (test/contract/console-types.test.ts).
import type { AppRouter } from '../../dist/types/index.js';

/** The session's CSRF token, sent as a header on every call (the cookie itself is HttpOnly). */
let csrf = '';
export const setCsrf = (token: string) => {
  csrf = token;
};

/** AppRouter's `console` part: /console/trpc serves those procedures only, to the session. */
export const api = createTRPCClient<AppRouter>({
  links: [httpLink({ url: '/console/trpc', headers: () => ({ 'X-CSRF-Token': csrf }) })],
}).console;

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
