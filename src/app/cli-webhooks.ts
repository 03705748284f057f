import type { Command } from './cli-commands.js';
import { required } from './cli-commands.js';

/**
 * Admin CLI commands for job webhook secrets (README "Safe retries, waiting and webhooks").
 * After a rotation deliveries carry two signatures (new and previous) for 24 h, so receivers can
 * switch secrets without missing a delivery.
 */
export const WEBHOOK_COMMANDS: Record<string, Command> = {
  'webhook secret show': {
    usage: 'webhook secret show --account ID',
    description: "Shows the account's webhook signing secret (created on first use).",
    options: { account: { type: 'string' } },
    prepare(v) {
      const accountId = required(v, 'account');
      return async ({ deps, queries }) => {
        await queries.showAccount({ accountId }); // account_not_found for an unknown id
        return { accountId, secret: await deps.webhooks.secretOf(accountId) };
      };
    },
  },
  'webhook secret rotate': {
    usage: 'webhook secret rotate --account ID',
    description: 'Replaces the signing secret; the previous one also signs for 24 h.',
    options: { account: { type: 'string' } },
    prepare(v) {
      const accountId = required(v, 'account');
      return async ({ deps, queries }) => {
        await queries.showAccount({ accountId }); // account_not_found for an unknown id
        const { secret, previousSignsUntil } = await deps.webhooks.rotate(accountId, deps.clock.now());
        return { accountId, secret, previousSignsUntil: previousSignsUntil?.toISOString() ?? null };
      };
    },
  },
};
