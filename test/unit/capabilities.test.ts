import { describe, expect, it } from 'vitest';
import { createSandboxAdapters } from '../../src/adapters/platforms/sandbox/adapter.js';
import { capabilityMatrix, describeMatrix, platformsNote } from '../../src/domain/capabilities.js';
import { CAPABILITIES, OPERATIONS, PLATFORMS, type Operation, type Platform } from '../../src/domain/platforms.js';
import type { AdapterSet } from '../../src/domain/ports/platform.js';

/** An adapter set serving exactly `served` (the live kind of a deployment, say). */
function adaptersServing(served: Partial<Record<Operation, Platform[]>>): AdapterSet {
  return { get: () => undefined, supporting: (op) => served[op] ?? [] };
}

describe('the capability matrix', () => {
  it('is, for sandbox keys, the product matrix, every platform listed', () => {
    const matrix = capabilityMatrix(createSandboxAdapters());
    expect(matrix.map((m) => m.platform)).toEqual([...PLATFORMS]);
    for (const { platform, operations } of matrix) {
      expect(operations).toEqual(OPERATIONS.filter((op) => (CAPABILITIES[op] as readonly string[]).includes(platform)));
    }
    expect(matrix.find((m) => m.platform === 'expedia')!.operations).toEqual([]);
  });

  it('is described per platform, and per operation for each key kind in tool descriptions', () => {
    const live = adaptersServing({ search: ['airbnb', 'vrbo'], price: ['airbnb'] });
    expect(describeMatrix(capabilityMatrix(live))).toBe('airbnb: search, price; vrbo: search');
    expect(describeMatrix(capabilityMatrix(adaptersServing({})))).toBe('none');
    const both = { sandbox: createSandboxAdapters(), live };
    expect(platformsNote('price', both)).toBe(' Platforms: airbnb, booking, vrbo, google with sandbox keys; airbnb with live keys.');
    expect(platformsNote('availability', both)).toBe(' Platforms: airbnb, booking, vrbo with sandbox keys; none with live keys.');
    expect(platformsNote('job', both)).toBe('');
  });
});
