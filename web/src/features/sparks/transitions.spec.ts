import type { SparkView } from '@sparks/contracts';

import type { SparkPage } from './api';
import { addSpark, pageCount, removeSpark, replaceSpark } from './transitions';

const spark = (id: string, name = `Spark ${id}`, pin = false): SparkView =>
  ({ _id: id, sparkId: id, name, pin, type: 'DOC' }) as SparkView;

const page = (items: SparkView[], extra: Partial<SparkPage> = {}): SparkPage => ({
  items,
  total: items.length,
  page: 1,
  limit: 4,
  ...extra,
});

describe('Sparks transitions (docs/product.md §4)', () => {
  it('delete removes the item and counts one less', () => {
    const before = page([spark('a'), spark('b')], { total: 7 });
    const after = removeSpark(before, 'a');
    expect(after.items.map((s) => s._id)).toEqual(['b']);
    expect(after.total).toBe(6);
    expect(removeSpark(before, 'zzz')).toBe(before);
  });

  it('rename and pin toggle replace the item in place', () => {
    const before = page([spark('a'), spark('b'), spark('c')]);
    const after = replaceSpark(before, spark('b', 'Renamed', true));
    expect(after.items.map((s) => s.name)).toEqual(['Spark a', 'Renamed', 'Spark c']);
    expect(after.items[1].pin).toBe(true);
    expect(replaceSpark(before, spark('zzz'))).toBe(before);
  });

  it('create adds the newest Spark in front of the first page, keeping the page size', () => {
    const before = page([spark('a'), spark('b'), spark('c'), spark('d')], { total: 9 });
    const after = addSpark(before, spark('new'));
    expect(after.items.map((s) => s._id)).toEqual(['new', 'a', 'b', 'c']);
    expect(after.total).toBe(10);
    const later = addSpark(page([spark('e')], { page: 2, total: 5 }), spark('new'));
    expect(later.items.map((s) => s._id)).toEqual(['e']);
    expect(later.total).toBe(6);
  });

  it('counts pages', () => {
    expect(pageCount(0, 4)).toBe(1);
    expect(pageCount(4, 4)).toBe(1);
    expect(pageCount(5, 4)).toBe(2);
    expect(pageCount(6, 1)).toBe(6);
  });
});
