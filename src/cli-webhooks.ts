import { sql } from 'drizzle-orm';
import type { Deps } from './deps.js';

/**
 * Admin CLI commands for job webhook secrets (dispatched from cli.ts):
 *   webhook secret show --account ID     -> {"accountId","secret"} (created on first use)
 *   webhook secret rotate --account ID   -> {"accountId","secret","previousSignsUntil"}
 * After a rotation deliveries carry two signatures (new and previous) for 24 h, so receivers can
 * switch secrets without missing a delivery.
 */
export const WEBHOOK_COMMANDS = ['webhook secret show', 'webhook secret rotate'];

export async function runWebhookCommand(deps: Deps, command: string, values: { account?: string | undefined }, usage: (message: string) => Error): Promise<unknown> {
  const accountId = values.account;
  if (!accountId) throw usage('--account is required');
  if (!(await accountExists(deps, accountId))) throw new Error(`no account ${accountId}`);
  if (command === 'webhook secret show') return { accountId, secret: await deps.webhooks.secretOf(accountId) };
  const { secret, previousSignsUntil } = await deps.webhooks.rotate(accountId, deps.clock.now());
  return { accountId, secret, previousSignsUntil: previousSignsUntil?.toISOString() ?? null };
}

async function accountExists(deps: Deps, accountId: string): Promise<boolean> {
  const { rows } = await deps.db.execute(sql`select 1 from accounts where id = ${accountId}`);
  return rows.length > 0;
}
