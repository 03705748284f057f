import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIPv6 } from 'node:net';
import { checkCallbackUrl, type CallbackPolicy } from './callback-url.js';

export interface DeliveryPolicy extends CallbackPolicy {
  timeoutMs: number;
  /** Bytes of the receiver's answer read at most; the rest is never read. */
  maxResponseBytes: number;
}

export interface DeliveryOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/**
 * POSTs one signed webhook. The URL is checked again here, and the connection is pinned to the
 * address just checked (the socket's lookup answers with it), so no second resolution can point
 * it elsewhere. Redirects are not followed (a 3xx is a failed attempt), the whole exchange has one
 * deadline, and at most `maxResponseBytes` of the answer are read.
 */
export async function deliverWebhook(target: string, body: string, headers: Record<string, string>, policy: DeliveryPolicy): Promise<DeliveryOutcome> {
  let checked;
  try {
    checked = await checkCallbackUrl(target, policy);
  } catch (err) {
    return { ok: false, status: null, error: err instanceof Error ? err.message : String(err) };
  }
  const { url, addresses } = checked;
  const address = addresses[0]!;
  const family = isIPv6(address) ? 6 : 4;
  const lookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
  const signal = AbortSignal.timeout(policy.timeoutMs);
  const client = url.protocol === 'https:' ? https : http;

  return new Promise<DeliveryOutcome>((resolve) => {
    const done = (outcome: DeliveryOutcome) => resolve(outcome);
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'User-Agent': 'accommodation-data-service-webhooks/1' },
        lookup,
        signal,
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        const finish = () => {
          res.destroy();
          if (status >= 200 && status < 300) done({ ok: true, status, error: null });
          else if (status >= 300 && status < 400) done({ ok: false, status, error: `answered ${status}; redirects are not followed` });
          else done({ ok: false, status, error: `answered ${status}` });
        };
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= policy.maxResponseBytes) finish();
        });
        res.on('end', finish);
        res.on('error', () => finish());
      },
    );
    req.on('error', (err) => done({ ok: false, status: null, error: signal.aborted ? `no answer within ${policy.timeoutMs} ms` : `could not deliver: ${err.message}` }));
    req.end(body);
  });
}
