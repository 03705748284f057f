import { createSandboxAdapters } from '../../src/adapters/platforms/sandbox/adapter.js';
import { adapterSet } from '../../src/adapters/platforms/registry.js';
import type { Platform } from '../../src/domain/platforms.js';
import { LegFailure, type AdapterSet, type PlatformAdapter } from '../../src/domain/ports/platform.js';

/**
 * Stand-in for the live platforms (the edge we do not own): the sandbox's data, with per-platform
 * latency and faults set by the test. Counts the upstream calls it receives.
 */
export type LegMode = 'ok' | 'empty' | 'fail' | 'blocked' | 'hang';
export interface LegControl {
  mode?: LegMode;
  delayMs?: number;
  /** What the platform declares a call will take (drives the async projection). */
  expectedMs?: number;
}

export interface FakePlatforms {
  adapters: AdapterSet;
  set(platform: Platform, control: LegControl): void;
  reset(): void;
  calls(): number;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

export function fakePlatforms(): FakePlatforms {
  const sandbox = createSandboxAdapters();
  const controls = new Map<Platform, LegControl>();
  let calls = 0;

  const wrap = (inner: PlatformAdapter): PlatformAdapter => {
    const before = async (signal: AbortSignal): Promise<LegMode> => {
      calls++;
      const { mode = 'ok', delayMs = 0 } = controls.get(inner.platform) ?? {};
      if (delayMs) await wait(delayMs, signal);
      if (mode === 'hang') await wait(3_600_000, signal);
      if (mode === 'fail') throw new LegFailure('failed', `${inner.platform} answered 502`, { platformFault: true });
      if (mode === 'blocked') throw new LegFailure('blocked', `${inner.platform} answered with a challenge page`);
      return mode;
    };
    return {
      platform: inner.platform,
      operations: inner.operations,
      expectedMs: (op, req) => controls.get(inner.platform)?.expectedMs ?? inner.expectedMs?.(op, req),
      search: async (req, signal) => ((await before(signal)) === 'empty' ? { items: [], hasMore: false, warnings: [] } : inner.search!(req, signal)),
      listing: async (req, signal) => ((await before(signal)) === 'empty' ? null : inner.listing!(req, signal)),
      price: async (req, signal) => ((await before(signal)) === 'empty' ? null : inner.price!(req, signal)),
      availability: async (req, signal) => ((await before(signal)) === 'empty' ? null : inner.availability!(req, signal)),
      reviews: async (req, signal) => ((await before(signal)) === 'empty' ? { reviews: [], hasMore: false, warnings: [] } : inner.reviews!(req, signal)),
      priceCompare: async (req, signal) => ((await before(signal)) === 'empty' ? null : inner.priceCompare!(req, signal)),
    };
  };

  const platforms: Platform[] = ['airbnb', 'booking', 'vrbo', 'google'];
  return {
    adapters: adapterSet(platforms.map((p) => wrap(sandbox.get(p)!))),
    set: (platform, control) => controls.set(platform, control),
    reset: () => controls.clear(),
    calls: () => calls,
  };
}
