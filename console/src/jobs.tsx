import { useQuery } from '@tanstack/react-query';
import { api } from './api.js';

/** Async jobs of the account, newest first; the result is polled at /v1/jobs/{id} with a key. */
export function Jobs() {
  const jobs = useQuery({ queryKey: ['jobs'], queryFn: () => api.jobs.query() });
  return (
    <section className="card" aria-labelledby="jobs-title">
      <h2 id="jobs-title">Async jobs</h2>
      {jobs.data?.length === 0 && <p className="muted">No jobs in the last 24 hours.</p>}
      {jobs.data && jobs.data.length > 0 && (
        <div className="scroll">
          <table className="jobs">
            <thead><tr><th>Job</th><th>Operation</th><th>Status</th><th>Credits</th><th>Result</th></tr></thead>
            <tbody>
              {jobs.data.map((j) => (
                <tr key={j.jobId}><td className="id"><code>{j.jobId}</code></td><td className="op">{j.procedure}</td><td className="status">{j.status}</td><td className="credits">{j.creditsCharged}</td><td className="poll"><code>GET /v1/jobs/{j.jobId}</code></td></tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
