import type { SparkTestView } from '@sparks/contracts';

import {
  canAddTest,
  defaultTestName,
  deleteConfirmed,
  feedbackMessage,
  MAX_TESTS,
  mobileTestPath,
  pathAfterDelete,
  redirectForMissingTest,
  tabName,
  testPath,
} from './rules';
import { appendTest, removeTest, replaceTest } from './transitions';

const test_ = (id: string, name = `Test ${id}`): SparkTestView => ({
  _id: id,
  sparkId: 's1',
  name,
  params: { documentId: null, waitResponse: true },
  createdAt: '2025-01-01T00:00:00.000Z',
});

describe('tabName (docs/product.md §9)', () => {
  it('keeps names of up to 10 characters whole', () => {
    expect(tabName('')).toBe('');
    expect(tabName('Test 1')).toBe('Test 1');
    expect(tabName('0123456789')).toBe('0123456789');
  });

  it('cuts longer names to 8 characters and an ellipsis', () => {
    expect(tabName('01234567890')).toBe('01234567…');
    expect(tabName('Opening hours on Sunday')).toBe('Opening …');
  });

  it('counts characters as the user sees them (no half emoji)', () => {
    expect(tabName('😀😀😀😀😀😀😀😀😀😀')).toBe('😀😀😀😀😀😀😀😀😀😀');
    expect(tabName('😀😀😀😀😀😀😀😀😀😀😀')).toBe('😀😀😀😀😀😀😀😀…');
  });
});

describe('canAddTest (docs/product.md §5)', () => {
  it('allows adding while the Spark has 4 or fewer tests', () => {
    expect(MAX_TESTS).toBe(5);
    for (const count of [0, 1, 2, 3, 4]) expect(canAddTest(count)).toBe(true);
  });

  it('refuses a sixth test', () => {
    expect(canAddTest(5)).toBe(false);
    expect(canAddTest(6)).toBe(false);
  });
});

describe('deleteConfirmed (docs/product.md §5)', () => {
  it('needs the exact name', () => {
    expect(deleteConfirmed('Prueba 1', 'Prueba 1')).toBe(true);
    expect(deleteConfirmed('prueba 1', 'Prueba 1')).toBe(false);
    expect(deleteConfirmed('Prueba 1 ', 'Prueba 1')).toBe(false);
    expect(deleteConfirmed('Prueba', 'Prueba 1')).toBe(false);
    expect(deleteConfirmed('', 'Prueba 1')).toBe(false);
  });

  it('never confirms an unnamed test', () => {
    expect(deleteConfirmed('', '')).toBe(false);
  });
});

describe('feedbackMessage (docs/product.md §4)', () => {
  it('answers the builder keywords, whatever the language', () => {
    expect(feedbackMessage(true)).toBe('test satisfactory');
    expect(feedbackMessage(false)).toBe('test not satisfactory');
  });
});

describe('defaultTestName', () => {
  const en = (n: number) => `Test ${n}`;

  it('numbers the new test after the existing ones', () => {
    expect(defaultTestName([], en)).toBe('Test 1');
    expect(defaultTestName(['Test 1', 'Test 2'], en)).toBe('Test 3');
    expect(defaultTestName(['Mine'], (n) => `Prueba ${n}`)).toBe('Prueba 2');
  });

  it('skips a number already taken', () => {
    expect(defaultTestName(['Test 2', 'test 3'], en)).toBe('Test 4');
    expect(defaultTestName(['Test 3', 'Test 2'], en)).toBe('Test 4');
  });
});

describe('paths', () => {
  it('encodes the ids', () => {
    expect(testPath('s 1', 't/2')).toBe('/spark/s%201/test/t%2F2');
    expect(mobileTestPath('s1', 't2')).toBe('/mobile-test/s1/t2');
  });
});

describe('pathAfterDelete', () => {
  const tests = [test_('a'), test_('b'), test_('c')];

  it('opens the next tab', () => {
    expect(pathAfterDelete(tests, 'a', 's1')).toBe('/spark/s1/test/b');
    expect(pathAfterDelete(tests, 'b', 's1')).toBe('/spark/s1/test/c');
  });

  it('opens the previous tab after deleting the last one', () => {
    expect(pathAfterDelete(tests, 'c', 's1')).toBe('/spark/s1/test/b');
  });

  it('goes back to the Spark after deleting the only test', () => {
    expect(pathAfterDelete([test_('a')], 'a', 's1')).toBe('/spark/s1');
  });
});

describe('redirectForMissingTest', () => {
  it('stays on a test that is there', () => {
    expect(redirectForMissingTest([test_('a'), test_('b')], 'b', 's1')).toBeNull();
  });

  it('opens the first test instead of an unknown one', () => {
    expect(redirectForMissingTest([test_('a'), test_('b')], 'zzz', 's1')).toBe('/spark/s1/test/a');
  });

  it('goes back to the Spark when it has no tests', () => {
    expect(redirectForMissingTest([], 'zzz', 's1')).toBe('/spark/s1');
  });
});

describe('tests transitions (docs/product.md §4)', () => {
  it('add appends, delete removes, rename replaces by _id', () => {
    const list = [test_('a'), test_('b')];
    expect(appendTest(list, test_('c')).map((t) => t._id)).toEqual(['a', 'b', 'c']);
    expect(appendTest(undefined, test_('c')).map((t) => t._id)).toEqual(['c']);
    expect(appendTest(list, test_('a', 'Renamed')).map((t) => t.name)).toEqual(['Renamed', 'Test b']);
    expect(removeTest(list, 'a').map((t) => t._id)).toEqual(['b']);
    expect(removeTest(undefined, 'a')).toEqual([]);
    expect(replaceTest(list, test_('b', 'Renamed')).map((t) => t.name)).toEqual(['Test a', 'Renamed']);
    expect(list.map((t) => t._id)).toEqual(['a', 'b']);
  });
});
