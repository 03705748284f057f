import { OPERATIONS, PLATFORMS, type Operation, type Platform } from './platforms.js';
import type { AdapterSet } from './ports/platform.js';

export interface PlatformCapability {
  platform: Platform;
  operations: Operation[];
}

/**
 * What each platform serves for one key kind, read from the adapters that kind uses: sandbox keys
 * get the product's whole matrix, live keys only what a live adapter implements and is configured
 * for. Every platform of the enum is listed, an unserved one with no operations, so a client can
 * tell "not served" from "unknown".
 */
export function capabilityMatrix(adapters: AdapterSet): PlatformCapability[] {
  return PLATFORMS.map((platform) => ({ platform, operations: OPERATIONS.filter((op) => adapters.supporting(op).includes(platform)) }));
}

/** The matrix as one line per served platform, for tool and endpoint descriptions. */
export function describeMatrix(matrix: PlatformCapability[]): string {
  const served = matrix.filter((m) => m.operations.length > 0);
  return served.length ? served.map((m) => `${m.platform}: ${m.operations.join(', ')}`).join('; ') : 'none';
}

/** Which platforms serve an operation for each key kind, as a sentence for tool descriptions. */
export function platformsNote(operation: string, adapters: { sandbox: AdapterSet; live: AdapterSet }): string {
  if (!(OPERATIONS as readonly string[]).includes(operation)) return '';
  const op = operation as Operation;
  const list = (set: AdapterSet) => set.supporting(op).join(', ') || 'none';
  return ` Platforms: ${list(adapters.sandbox)} with sandbox keys; ${list(adapters.live)} with live keys.`;
}
