import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from './api.js';

const OPERATIONS = ['search', 'availability', 'listing', 'price', 'priceCompare', 'reviews'] as const;
type Platform = Awaited<ReturnType<typeof api.platforms.query>>[number];
const STATUSES = ['complete', 'partial'] as const;

/** One filter: a select whose empty value means "all". */
function Filter<T extends string>({ name, values, value, onChange }: { name: string; values: readonly T[]; value: T | null; onChange: (v: T | null) => void }) {
  return (
    <label className="filter">
      {name}{' '}
      <select name={name.toLowerCase()} value={value ?? ''} onChange={(e) => onChange((e.target.value || null) as T | null)}>
        <option value="">all</option>
        {values.map((v) => <option key={v} value={v}>{v}</option>)}
      </select>
    </label>
  );
}

/**
 * The newest billed requests (and jobs), with the id every answer carried, the platforms asked,
 * the outcome ('partial': a platform failed and was not billed) and the credits.
 */
export function Requests() {
  const [operation, setOperation] = useState<(typeof OPERATIONS)[number] | null>(null);
  const [platform, setPlatform] = useState<Platform | null>(null);
  // Only the platforms that serve something for this account's keys (the /v1/platforms matrix).
  const platforms = useQuery({ queryKey: ['platforms'], queryFn: () => api.platforms.query() });
  const [status, setStatus] = useState<(typeof STATUSES)[number] | null>(null);
  const requests = useQuery({ queryKey: ['requests', operation, platform, status], queryFn: () => api.requests.query({ operation, platform, status, limit: 50 }) });
  return (
    <section className="card" aria-labelledby="requests-title">
      <h2 id="requests-title">Billed requests</h2>
      <div className="row filters">
        <Filter name="Operation" values={OPERATIONS} value={operation} onChange={setOperation} />
        <Filter name="Platform" values={platforms.data ?? []} value={platform} onChange={setPlatform} />
        <Filter name="Status" values={STATUSES} value={status} onChange={setStatus} />
      </div>
      <div className="scroll">
        <table className="requests">
          <thead><tr><th>When (UTC)</th><th>Request id</th><th>Operation</th><th>Platforms</th><th>Status</th><th>Credits</th></tr></thead>
          <tbody>
            {requests.data?.map((r) => (
              <tr key={r.requestId} data-request-id={r.requestId}>
                <td className="when">{r.at.slice(0, 16).replace('T', ' ')}</td>
                <td className="id"><code>{r.requestId}</code></td>
                <td className="op">{r.operation}</td>
                <td className="platforms">{r.platforms.join(', ') || '—'}</td>
                <td className={r.status === 'partial' ? 'status warn' : 'status'}>{r.status ?? '—'}</td>
                <td className="credits">{r.credits}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {requests.data?.length === 0 && (
          <p className="muted" data-testid="requests-empty">
            {operation || platform || status ? 'No billed requests match.' : 'No billed requests yet. Calls with sandbox keys are free, so they are not listed here (Usage above counts them per day); each live call that costs credits will appear with its request id, platforms and outcome.'}
          </p>
        )}
      </div>
    </section>
  );
}
