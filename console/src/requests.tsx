import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from './api.js';

const OPERATIONS = ['search', 'availability', 'listing', 'price', 'priceCompare', 'reviews'] as const;
const PLATFORMS = ['airbnb', 'booking', 'vrbo', 'expedia', 'hotels', 'google', 'tripadvisor'] as const;
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
  const [platform, setPlatform] = useState<(typeof PLATFORMS)[number] | null>(null);
  const [status, setStatus] = useState<(typeof STATUSES)[number] | null>(null);
  const requests = useQuery({ queryKey: ['requests', operation, platform, status], queryFn: () => api.requests.query({ operation, platform, status, limit: 50 }) });
  return (
    <section className="card" aria-labelledby="requests-title">
      <h2 id="requests-title">Billed requests</h2>
      <div className="row filters">
        <Filter name="Operation" values={OPERATIONS} value={operation} onChange={setOperation} />
        <Filter name="Platform" values={PLATFORMS} value={platform} onChange={setPlatform} />
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
        {requests.data?.length === 0 && <p className="muted">No billed requests match.</p>}
      </div>
    </section>
  );
}
