import { PLATFORMS, type Platform } from '../platforms.js';

/**
 * The reverse of `compositeId` (platforms.ts): every answered item's `id` is
 * `stays_<platform>_<native id>`, and that is the id an agent holds after a search (the compact
 * view keeps no other), so each listing parameter takes it as well as the native id. Platform names
 * hold no underscore, so the first one after the prefix ends the platform. Only our own platform
 * names count: anything else is left for the native rules to judge.
 */
const COMPOSITE = /^stays_([a-z]+)_([\s\S]*)$/;
const KNOWN: ReadonlySet<string> = new Set(PLATFORMS);

export interface CompositeId {
  platform: Platform;
  nativeId: string;
}

/** The platform and native id inside a composite id, or null when `value` is not one. */
export function splitCompositeId(value: string): CompositeId | null {
  const m = COMPOSITE.exec(value);
  if (!m || !KNOWN.has(m[1]!)) return null;
  return { platform: m[1] as Platform, nativeId: m[2]! };
}
