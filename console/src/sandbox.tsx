import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { api } from './api.js';

const TRIGGERS: [string, string][] = [
  ['Lisbon', 'one of the 30 sandbox cities: deterministic properties (the console shows 5)'],
  ['sandbox:partial', 'one platform fails: meta.partial is true, that leg costs 0'],
  ['sandbox:unavailable', '503 upstream_unavailable, 0 credits'],
  ['sandbox:format-changed', 'every leg fails as if the platform changed its format: 502'],
  ['Atlantis', 'an unknown place: no items and a no_results warning'],
];

/** Runs a sandbox search (free) as the signed-in account and shows the JSON a key would get. */
export function Sandbox() {
  const [location, setLocation] = useState('Lisbon');
  const search = useMutation({ mutationFn: (where: string) => api.sandboxSearch.mutate({ location: where }) });
  const shown = search.isError ? (search.error instanceof TRPCClientError ? (search.error.data as { apiError?: unknown } | undefined)?.apiError : String(search.error)) : search.data;
  return (
    <section className="card" aria-labelledby="sandbox-title">
      <h2 id="sandbox-title">Sandbox</h2>
      <p className="muted">Sandbox keys (<code>svc_test_…</code>) are free and deterministic. These search locations reproduce the paths a client must handle:</p>
      <ul className="triggers">
        {TRIGGERS.map(([value, effect]) => (
          <li key={value}>
            <button type="button" className="link" onClick={() => setLocation(value)}><code>{value}</code></button> {effect}
          </li>
        ))}
      </ul>
      <div className="row">
        <input aria-label="Location" value={location} onChange={(e) => setLocation(e.target.value)} />{' '}
        <button type="button" onClick={() => search.mutate(location)} disabled={search.isPending}>Run sandbox search</button>
      </div>
      {shown !== undefined && <pre className="json" data-testid="sandbox-json">{JSON.stringify(shown, null, 2)}</pre>}
    </section>
  );
}
