import type { Deps } from './deps.js';
import { startJobRunner, type JobRunner } from './adapters/jobs/runner.js';
import { abandonJobs, executeJob } from './router/job-executor.js';

/** The job worker for this process's Deps: runs accepted jobs and the retention clean-up. */
export function startWorker(deps: Deps, databaseUrl: string): Promise<JobRunner> {
  const { worker } = deps.config;
  return startJobRunner({
    connectionString: databaseUrl,
    concurrency: worker.concurrency,
    pollIntervalMs: worker.pollIntervalMs,
    heartbeatMs: worker.heartbeatMs,
    staleAfterMs: worker.staleAfterMs,
    execute: (jobId, attempt, maxAttempts) => executeJob(deps, jobId, attempt, maxAttempts),
    abandon: (jobIds) => abandonJobs(deps, jobIds),
    deleteExpired: () => deps.jobs.deleteExpired(deps.clock.now()),
    log: deps.log,
  });
}
