import { CAPABILITIES, type Operation, type Platform } from '../../domain/platforms.js';
import type { AdapterSet, PlatformAdapter } from '../../domain/ports.js';

/**
 * Live keys' adapters. Enabling a platform is registering its adapter here, nothing else
 * (design.md section 3): an operation a platform's adapter does not declare answers
 * platform_not_supported.
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

/** No live platform adapter is registered yet; live keys answer platform_not_supported. */
export function createLiveAdapters(): AdapterSet {
  return adapterSet([]);
}
