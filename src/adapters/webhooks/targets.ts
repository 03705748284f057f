import type { WebhookConfig } from '../../config.js';
import type { CallbackTargets } from '../../domain/ports/webhooks.js';
import { checkCallbackUrl, type ResolveHost } from './callback-url.js';
import { deliverWebhook } from './deliver.js';

/** Callback checks and deliveries under the webhook settings (read at each call). */
export function createCallbackTargets(settings: WebhookConfig, resolve: ResolveHost): CallbackTargets {
  const policy = () => ({ allowLoopback: settings.allowLoopback, timeoutMs: settings.timeoutMs, maxResponseBytes: settings.maxResponseBytes, resolve });
  return {
    async check(raw) {
      return (await checkCallbackUrl(raw, policy())).url.href;
    },
    deliver: (url, body, headers) => deliverWebhook(url, body, headers, policy()),
  };
}
