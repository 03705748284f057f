import { describe, expect, it } from 'vitest';
import { estimateCall } from '../../src/domain/billing/estimate.js';
import { maxCredits } from '../../src/domain/billing/pricing.js';

describe('estimateCall', () => {
  const shape = { platforms: ['airbnb', 'booking', 'vrbo'] as const, maxItems: 20 };
  const legs = [
    { platform: 'airbnb' as const, cachedCount: 7 },
    { platform: 'booking' as const, cachedCount: null },
    { platform: 'vrbo' as const, cachedCount: null },
  ];

  it('prices cached legs exactly, open breakers at 0, the rest at their worst case; the worst case is the 402 figure', () => {
    const e = estimateCall('summary', 'live', 'search', { ...shape, platforms: [...shape.platforms] }, legs, (p) => (p === 'vrbo' ? 'open' : 'closed'), 30);
    expect(e.platforms.map((p) => [p.platform, p.worstCaseCredits, p.likelyCredits, p.cached, p.breaker])).toEqual([
      ['airbnb', 40, 14, true, 'closed'],
      ['booking', 20, 20, false, 'closed'],
      ['vrbo', 20, 0, false, 'open'],
    ]);
    expect(e.worstCaseCredits).toBe(maxCredits('summary', 'live', 'search', { ...shape, platforms: [...shape.platforms] }));
    expect([e.likelyCredits, e.withinMaxCredits]).toEqual([34, false]);
  });

  it('is 0 for sandbox keys', () => {
    const e = estimateCall('reference', 'sandbox', 'search', { ...shape, platforms: [...shape.platforms] }, legs, () => 'none', null);
    expect([e.worstCaseCredits, e.likelyCredits, e.withinMaxCredits]).toEqual([0, 0, true]);
  });
});
