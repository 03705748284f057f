import { useState, type FormEvent } from 'react';
import { signIn } from './api.js';

/** The same e-mail and password as the MCP sign-in (set with `account set-password`). */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await signIn(String(form.get('email')), String(form.get('password')));
      onSignedIn();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <main className="narrow">
      <h1>Sign in to the console</h1>
      {error && <p className="err" role="alert">{error}</p>}
      <form onSubmit={submit}>
        <label htmlFor="email">E-mail</label>
        <input id="email" name="email" type="email" autoComplete="username" required />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        <button type="submit" disabled={busy}>Sign in</button>
      </form>
      <p className="muted">
        Started with <code>npm start</code> on its embedded database? Its demo account's e-mail and password are kept in{' '}
        <code>demo-console-sign-in</code> in the data folder (<code>DATA_DIR</code>, <code>.data/</code> by default); the first
        start printed them too.
      </p>
    </main>
  );
}
