import type { LiveConfig } from '../../config.js';
import { CAPABILITIES, type Operation, type Platform } from '../../domain/platforms.js';
import type { AdapterSet, PlatformAdapter } from '../../domain/ports/platform.js';
import type { Clock } from '../../domain/ports/system.js';
import { createAirbnbAdapter } from './airbnb/index.js';
import { createBookingAdapter } from './booking/index.js';
import { createGoogleAdapter } from './google/index.js';
import { createUpstreamClient, type UpstreamClient } from './http/upstream.js';
import { createVrboAdapter } from './vrbo/index.js';

/**
 * Enabling a platform is registering its adapter, nothing else (design.md section 3): an
 * operation a platform's adapter does not declare answers platform_not_supported.
 */
export function adapterSet(adapters: PlatformAdapter[]): AdapterSet {
  const byPlatform = new Map<Platform, PlatformAdapter>(adapters.map((a) => [a.platform, a]));
  return {
    get: (platform) => byPlatform.get(platform),
    supporting: (op: Operation) => {
      const ordered = CAPABILITIES[op].filter((p) => byPlatform.get(p)?.operations.has(op));
      const extra = [...byPlatform.values()].filter((a) => a.operations.has(op) && !ordered.includes(a.platform)).map((a) => a.platform);
      return [...ordered, ...extra];
    },
  };
}

export interface LiveAdapters extends AdapterSet {
  close(): Promise<void>;
}

/**
 * The live adapters of the platforms listed in LIVE_PLATFORMS, each with its own HTTP client to
 * its configured base URL (the real platform, or the replay upstream). Google needs its API key.
 */
export function createLiveAdapters(config: LiveConfig, clock: Clock): LiveAdapters {
  const clients: UpstreamClient[] = [];
  const client = (platform: keyof LiveConfig['baseUrls'], headers: Record<string, string> = {}) => {
    const c = createUpstreamClient({ platform, baseUrl: config.baseUrls[platform], timeoutMs: config.timeoutMs, retries: config.retries, concurrency: config.concurrency, headers });
    clients.push(c);
    return c;
  };
  const now = () => clock.now();
  const enabled = new Set(config.platforms);
  const adapters: PlatformAdapter[] = [];
  if (enabled.has('airbnb')) adapters.push(createAirbnbAdapter(client('airbnb', config.airbnbApiKey ? { 'x-airbnb-api-key': config.airbnbApiKey } : {})));
  if (enabled.has('booking')) adapters.push(createBookingAdapter(client('booking'), { now }));
  if (enabled.has('vrbo')) adapters.push(createVrboAdapter(client('vrbo')));
  if (enabled.has('google') && config.googleApiKey) adapters.push(createGoogleAdapter(client('google'), { apiKey: config.googleApiKey, now }));
  return { ...adapterSet(adapters), close: async () => void (await Promise.all(clients.map((c) => c.close()))) };
}
