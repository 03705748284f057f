import { useQuery, useQueryClient } from '@tanstack/react-query';
import { currentSession, signOut } from './api.js';
import { SignIn } from './sign-in.js';
import { Overview } from './overview.js';
import { Keys } from './keys.js';
import { Usage } from './usage.js';
import { Requests } from './requests.js';
import { Jobs } from './jobs.js';
import { Sandbox } from './sandbox.js';

export function App() {
  const queries = useQueryClient();
  const session = useQuery({ queryKey: ['session'], queryFn: currentSession });
  if (session.isPending) return <p className="muted">Loading…</p>;
  if (session.isError) return <p role="alert">The console could not reach the service: {String(session.error)}</p>;
  if (!session.data.signedIn) return <SignIn onSignedIn={() => queries.invalidateQueries()} />;
  return (
    <main>
      <header>
        <h1>Developer console</h1>
        <button
          type="button"
          onClick={async () => {
            await signOut();
            queries.clear();
            await queries.invalidateQueries({ queryKey: ['session'] });
          }}
        >
          Sign out
        </button>
      </header>
      <Overview />
      <Usage />
      <Keys />
      <Requests />
      <Jobs />
      <Sandbox />
    </main>
  );
}
