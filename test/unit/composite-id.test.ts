import { describe, expect, it } from 'vitest';
import { splitCompositeId } from '../../src/domain/listing-ids/composite-id.js';
import { compositeId } from '../../src/domain/platforms.js';
import { nativeOfComposite } from '../../src/router/listing-ids/listing-ref.js';

describe('splitCompositeId', () => {
  it('is the reverse of compositeId for every native id shape', () => {
    const natives: [Parameters<typeof compositeId>[0], string][] = [['airbnb', '40000012'], ['booking', 'pt/lumen-hotel-belem'], ['vrbo', '6000004ha'], ['google', 'ChkIZzAuMjk_-x']];
    for (const [platform, nativeId] of natives) expect(splitCompositeId(compositeId(platform, nativeId))).toEqual({ platform, nativeId });
  });

  it('leaves alone what is not one of ours: no prefix, an unknown platform', () => {
    for (const value of ['40000012', 'stays_foo_123', 'stays_airbnb', 'Stays_airbnb_1', 'xstays_airbnb_1']) expect(splitCompositeId(value), value).toBeNull();
  });

  it('refuses our prefix with nothing after it, naming the parameter: stays_google_ passes google\'s native shape', () => {
    expect(splitCompositeId('stays_google_')).toEqual({ platform: 'google', nativeId: '' });
    for (const [platform, param] of [['google', 'googleHotelId'], ['airbnb', 'id']] as const) {
      expect(() => nativeOfComposite(platform, `stays_${platform}_`, param)).toThrow(expect.objectContaining({ code: 'invalid_listing_id', param }));
    }
  });
});
