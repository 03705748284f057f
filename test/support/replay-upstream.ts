import type { AddressInfo } from 'node:net';
import type { LiveConfig } from '../../src/config.js';
import { createReplayServer } from '../../src/replay/server.js';

export type ReplayServer = ReturnType<typeof createReplayServer>;

export interface ReplayUpstream {
  server: ReplayServer;
  /** Base URL; each platform lives under `/<platform>`, the fault knobs under `/__replay`. */
  url: string;
  close(): Promise<void>;
}

/** The replay upstream (the platforms' stand-in) on a free loopback port, serving `dir`. */
export async function startReplayUpstream(dir = 'fixtures/replay'): Promise<ReplayUpstream> {
  const server = createReplayServer(dir);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    url,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Every live platform pointed at the replay upstream at `url`; tests default to short timeouts and no retries. */
export function replayLiveConfig(
  url: string,
  client: Pick<LiveConfig, 'timeoutMs' | 'retries' | 'concurrency'> & Partial<Pick<LiveConfig, 'accountConcurrency'>> = { timeoutMs: 2_000, retries: 0, concurrency: 4 },
): LiveConfig {
  return {
    platforms: ['airbnb', 'booking', 'vrbo', 'google'],
    baseUrls: { airbnb: `${url}/airbnb`, booking: `${url}/booking`, vrbo: `${url}/vrbo`, google: `${url}/google` },
    airbnbApiKey: null,
    googleApiKey: 'replay-key',
    accountConcurrency: client.concurrency,
    ...client,
  };
}
