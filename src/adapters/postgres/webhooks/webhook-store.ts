import { eq, sql } from 'drizzle-orm';
import { newWebhookSecret } from '../../../domain/webhooks/webhook-signature.js';
import type { WebhookRecord, WebhookStatus, WebhookStore } from '../../../domain/ports/webhooks.js';
import type { Db } from '../db.js';
import { jobWebhooks, webhookSecrets } from '../schema.js';
import { addJobSql } from '../../jobs/tasks.js';

/** After a rotation the previous secret signs beside the new one for this long. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60_000;
/** graphile-worker's own retries of a delivery task that crashed (not of a failed delivery). */
const TASK_ATTEMPTS = 5;

export function createPgWebhookStore(db: Db): WebhookStore {
  const store: WebhookStore = {
    async register(jobId, accountId, url) {
      // Lock the job row first: a job ending at this moment either sees this webhook in its
      // trigger, or has ended already and the delivery is queued here.
      await db.transaction(async (tx) => {
        const { rows } = await tx.execute<{ status: string }>(sql`select status from async_jobs where id = ${jobId} for update`);
        const ended = rows[0] && (rows[0].status === 'completed' || rows[0].status === 'failed');
        await tx.execute(sql`
          with added as (
            insert into job_webhooks (job_id, account_id, url, status) values (${jobId}, ${accountId}, ${url}, ${ended ? 'pending' : 'waiting'})
            on conflict (job_id, url) do nothing returning id
          )
          select ${addJobSql('deliver_webhook', { webhookId: sql`id` }, sql`job_key := 'webhook:' || id, max_attempts := ${TASK_ATTEMPTS}::int`)}
          from added where ${ended ? sql`true` : sql`false`}`);
      });
    },

    async viewOf(jobId) {
      const [row] = await db
        .select({ status: jobWebhooks.status, attempts: jobWebhooks.attempts, lastError: jobWebhooks.lastError })
        .from(jobWebhooks)
        .where(eq(jobWebhooks.jobId, jobId))
        .orderBy(jobWebhooks.id)
        .limit(1);
      return row ? { ...row, status: row.status as WebhookStatus } : null;
    },

    async find(id) {
      const [row] = await db.select().from(jobWebhooks).where(eq(jobWebhooks.id, id));
      if (!row) return null;
      const record: WebhookRecord = { id: row.id, jobId: row.jobId, accountId: row.accountId, url: row.url, status: row.status as WebhookStatus, attempts: row.attempts, lastError: row.lastError };
      return record;
    },

    async recordAttempt(id, a) {
      await db.execute(sql`
        with recorded as (
          update job_webhooks set status = ${a.status}, attempts = ${a.attempts}, last_error = ${a.lastError}, last_attempt_at = ${a.now.toISOString()}::timestamptz,
                 delivered_at = ${a.status === 'delivered' ? a.now.toISOString() : null}::timestamptz
          where id = ${id} returning id
        )
        select ${addJobSql('deliver_webhook', { webhookId: sql`id` }, sql`job_key := 'webhook:' || id, run_at := ${a.retryAt?.toISOString() ?? null}::timestamptz, max_attempts := ${TASK_ATTEMPTS}::int`)}
        from recorded where ${a.retryAt ? sql`true` : sql`false`}`);
    },

    async secretOf(accountId) {
      await db.insert(webhookSecrets).values({ accountId, secret: newWebhookSecret(), rotatedAt: new Date(0) }).onConflictDoNothing();
      const [row] = await db.select({ secret: webhookSecrets.secret }).from(webhookSecrets).where(eq(webhookSecrets.accountId, accountId));
      return row!.secret;
    },

    async signingSecrets(accountId, now) {
      const current = await store.secretOf(accountId);
      const [row] = await db.select().from(webhookSecrets).where(eq(webhookSecrets.accountId, accountId));
      const previousValid = row?.previousSecret && now.getTime() - row.rotatedAt.getTime() < PREVIOUS_SECRET_GRACE_MS;
      return previousValid ? [current, row.previousSecret!] : [current];
    },

    async rotate(accountId, now) {
      const secret = newWebhookSecret();
      const { rows } = await db.execute<{ previous_secret: string | null }>(sql`
        insert into webhook_secrets (account_id, secret, previous_secret, rotated_at)
        values (${accountId}, ${secret}, null, ${now.toISOString()}::timestamptz)
        on conflict (account_id) do update set previous_secret = webhook_secrets.secret, secret = excluded.secret, rotated_at = excluded.rotated_at
        returning previous_secret`);
      const hadOne = !!rows[0]?.previous_secret;
      return { secret, previousSignsUntil: hadOne ? new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS) : null };
    },
  };
  return store;
}
