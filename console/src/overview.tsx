import { useQuery } from '@tanstack/react-query';
import { api } from './api.js';

export function Overview() {
  const q = useQuery({ queryKey: ['overview'], queryFn: () => api.overview.query() });
  if (!q.data) return <section className="card">Loading account…</section>;
  const o = q.data;
  return (
    <section className="card stats" aria-label="Account">
      <div><span className="label">Account</span><strong>{o.email}</strong></div>
      <div><span className="label">Plan</span><strong data-testid="plan">{o.plan}</strong></div>
      <div><span className="label">Balance</span><strong data-testid="balance">{o.balance.toLocaleString('en')} credits</strong></div>
      <div><span className="label">Rate limit</span><strong>{o.liveRequestsPerMinute}/min live · {o.sandboxRequestsPerMinute}/min sandbox</strong></div>
      {!o.emailVerified && <p className="err">E-mail not verified: live calls are refused until it is.</p>}
    </section>
  );
}
