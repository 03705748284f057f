import { describe, expect, it } from 'vitest';
import { Property } from '../../src/domain/model/property.js';
import { itemPaths, project, unknownPaths } from '../../src/domain/shaping/projection.js';

describe('fields projection', () => {
  const paths = itemPaths(Property);

  it('knows the documented paths, nested ones included', () => {
    expect(paths).toEqual(expect.arrayContaining(['id', 'name', 'price', 'price.totalPrice', 'location.city', 'host.isSuperhost']));
    expect(unknownPaths(paths, ['id', 'price.total', 'nme'])).toEqual(['price.total', 'nme']);
  });

  it('keeps only the selected paths, through nulls and lists', () => {
    const items = [
      { id: 'a', name: 'A', price: { totalPrice: 10, nightlyPrice: 5 }, rating: 1 },
      { id: 'b', name: 'B', price: null, rating: 2 },
    ];
    expect(project(items, ['id', 'price.totalPrice'])).toEqual([{ id: 'a', price: { totalPrice: 10 } }, { id: 'b', price: null }]);
    expect(project({ id: 'x', location: { city: 'Lisbon', lat: 1 } }, ['location', 'location.city'])).toEqual({ location: { city: 'Lisbon', lat: 1 } });
  });
});
