import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, messageOf } from './api.js';

/** API keys: a new key is shown once (only its hash is stored); revoking asks for confirmation. */
export function Keys() {
  const queries = useQueryClient();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => api.keys.query() });
  const [created, setCreated] = useState<{ key: string; prefix: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (env: 'live' | 'sandbox') => api.createKey.mutate({ env }),
    onSuccess: (k) => {
      setCreated(k);
      void queries.invalidateQueries({ queryKey: ['keys'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) => api.revokeKey.mutate({ keyId }),
    onSuccess: () => {
      setConfirming(null);
      void queries.invalidateQueries({ queryKey: ['keys'] });
    },
  });
  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <div className="row">
        <button type="button" onClick={() => create.mutate('sandbox')}>New sandbox key</button>
        <button type="button" onClick={() => create.mutate('live')}>New live key</button>
      </div>
      {create.isError && <p className="err" role="alert">{messageOf(create.error)}</p>}
      {created && (
        <div className="secret" role="status">
          <p>Copy this key now: it is not shown again. "Last used" is updated about once a minute.</p>
          <code data-testid="new-key">{created.key}</code>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(created.key)}>Copy</button>
          <button type="button" onClick={() => setCreated(null)}>Done</button>
        </div>
      )}
      <div className="scroll">
      <table className="keys">
        <thead><tr><th>Prefix</th><th>Kind</th><th>Created</th><th>Last used</th><th>Status</th><th /></tr></thead>
        <tbody>
          {keys.data?.map((k) => (
            <tr key={k.keyId} data-key-prefix={k.prefix}>
              <td className="prefix"><code>{k.prefix}…</code></td>
              <td className="kind">{k.env}</td>
              <td className="created">{k.createdAt.slice(0, 10)}</td>
              <td className="used" data-testid="last-used">{k.lastUsedAt ? k.lastUsedAt.slice(0, 16).replace('T', ' ') : 'never'}</td>
              <td className="state">{k.revokedAt ? `revoked ${k.revokedAt.slice(0, 10)}` : 'active'}</td>
              <td className="action">
                {!k.revokedAt && confirming !== k.keyId && <button type="button" onClick={() => setConfirming(k.keyId)}>Revoke</button>}
                {confirming === k.keyId && (
                  <span className="confirm">
                    Revoke {k.prefix}…? Calls with it will fail.{' '}
                    <button type="button" className="danger" onClick={() => revoke.mutate(k.keyId)}>Yes, revoke</button>
                    <button type="button" onClick={() => setConfirming(null)}>Cancel</button>
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      {keys.data?.length === 0 && <p className="muted">No keys yet: create one above.</p>}
      {revoke.isError && <p className="err" role="alert">{messageOf(revoke.error)}</p>}
    </section>
  );
}
