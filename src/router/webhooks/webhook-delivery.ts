import type { Deps } from '../../deps.js';
import { signatureHeader } from '../../domain/webhooks/webhook-signature.js';
import { jobAnswer } from '../jobs/job-answer.js';

/**
 * One delivery attempt of a job's webhook (a graphile-worker task): POSTs what
 * `GET /v1/jobs/{id}` answers now, signed with the account's secret(s). A failed attempt queues
 * the next one after the schedule's delay, in the statement that records it; past the schedule
 * the webhook is failed. At least once: a worker dying mid-attempt has the task run again.
 */
export async function runWebhookDelivery(deps: Deps, webhookId: number): Promise<void> {
  const hook = await deps.webhooks.find(webhookId);
  if (!hook || hook.status === 'delivered' || hook.status === 'failed' || hook.status === 'waiting') return;
  const now = deps.clock.now();
  const attempts = hook.attempts + 1;
  // The webhook was registered by the job's owner, with whichever key kind made the job.
  const owner = (keyEnv: 'live' | 'sandbox') => deps.jobs.find(hook.jobId, { accountId: hook.accountId, keyEnv }, now);
  const job = (await owner('live')) ?? (await owner('sandbox'));
  if (!job) {
    await deps.webhooks.recordAttempt(hook.id, { status: 'failed', attempts: hook.attempts, lastError: 'the job expired before its webhook was delivered', now, retryAt: null });
    return;
  }
  const { body } = jobAnswer(job, deps.ids.requestId(), now);
  const payload = JSON.stringify({ ...body, data: { ...body.data, webhook: { status: hook.status, attempts: hook.attempts, lastError: hook.lastError } } });
  const id = `msg_${job.id}_${hook.id}`; // the same for every attempt: receivers de-duplicate on it
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = await deps.webhooks.signingSecrets(hook.accountId, now);
  const outcome = await deps.callbacks.deliver(hook.url, payload, { 'Webhook-Id': id, 'Webhook-Timestamp': String(timestamp), 'Webhook-Signature': signatureHeader(secrets, id, timestamp, payload) });
  const at = deps.clock.now();
  if (outcome.ok) {
    await deps.webhooks.recordAttempt(hook.id, { status: 'delivered', attempts, lastError: null, now: at, retryAt: null });
    return;
  }
  const delay = deps.config.webhooks.retryScheduleMs[attempts - 1];
  deps.log.info({ jobId: job.id, webhookId: hook.id, attempts, error: outcome.error }, 'webhook delivery failed');
  await deps.webhooks.recordAttempt(hook.id, {
    status: delay === undefined ? 'failed' : 'retrying',
    attempts,
    lastError: outcome.error,
    now: at,
    retryAt: delay === undefined ? null : new Date(at.getTime() + delay),
  });
}
