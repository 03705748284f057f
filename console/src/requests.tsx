import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from './api.js';

const OPERATIONS = ['search', 'availability', 'listing', 'price', 'priceCompare', 'reviews'];

/** The newest billed requests, filtered by operation; the request id is the one every answer carried. */
export function Requests() {
  const [operation, setOperation] = useState<string | null>(null);
  const requests = useQuery({ queryKey: ['requests', operation], queryFn: () => api.requests.query({ operation, limit: 50 }) });
  return (
    <section className="card" aria-labelledby="requests-title">
      <h2 id="requests-title">Billed requests</h2>
      <label>
        Operation{' '}
        <select value={operation ?? ''} onChange={(e) => setOperation(e.target.value || null)}>
          <option value="">all</option>
          {OPERATIONS.map((op) => <option key={op} value={op}>{op}</option>)}
        </select>
      </label>
      <div className="scroll">
        <table>
          <thead><tr><th>When (UTC)</th><th>Request id</th><th>Operation</th><th>Credits</th></tr></thead>
          <tbody>
            {requests.data?.map((r) => (
              <tr key={r.requestId}><td>{r.at.slice(0, 16).replace('T', ' ')}</td><td><code>{r.requestId}</code></td><td>{r.operation}</td><td>{r.credits}</td></tr>
            ))}
          </tbody>
        </table>
        {requests.data?.length === 0 && <p className="muted">No billed requests yet.</p>}
      </div>
    </section>
  );
}
