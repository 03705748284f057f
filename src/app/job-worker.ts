import type { Deps } from '../deps.js';
import { sessionDatabaseUrl } from '../config.js';
import { startJobRunner, type JobRunner } from '../adapters/jobs/runner.js';
import { abandonJobs, executeJob } from '../router/jobs/job-executor.js';
import { runWebhookDelivery } from '../router/webhooks/webhook-delivery.js';

/** The job worker for this process's Deps: runs accepted jobs and the retention clean-up. */
export function startWorker(deps: Deps, databaseUrl: string): Promise<JobRunner> {
  const { worker } = deps.config;
  return startJobRunner({
    // graphile-worker's runner LISTENs and uses prepared statements: a session of its own.
    connectionString: sessionDatabaseUrl(deps.config, databaseUrl),
    concurrency: worker.concurrency,
    pollIntervalMs: worker.pollIntervalMs,
    heartbeatMs: worker.heartbeatMs,
    staleAfterMs: worker.staleAfterMs,
    execute: (jobId, attempt, maxAttempts, keyId, queueEntry) => executeJob(deps, jobId, attempt, maxAttempts, keyId, queueEntry),
    // Idempotency-Key answers are kept as long as jobs (24 h) and cleared by the same periodic task.
    deleteExpired: async () => (await deps.jobs.deleteExpired(deps.clock.now())) + (await deps.idempotency.deleteExpired(deps.clock.now())),
    deliverWebhook: (webhookId) => runWebhookDelivery(deps, webhookId),
    abandon: (jobIds) => abandonJobs(deps, jobIds),
    log: deps.log,
  });
}
