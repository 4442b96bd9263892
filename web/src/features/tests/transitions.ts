import type { SparkTestView } from '@sparks/contracts';

/**
 * docs/product.md §4 "Tests" transitions on the cached list: add appends, delete removes, rename replaces by _id (fetch
 * replaces the whole list: SWR does that). The cached list is never changed in place.
 */

export function appendTest(tests: readonly SparkTestView[] | undefined, added: SparkTestView): SparkTestView[] {
  const list = tests ?? [];
  if (list.some((test) => test._id === added._id)) return replaceTest(list, added);
  return [...list, added];
}

export function removeTest(tests: readonly SparkTestView[] | undefined, testId: string): SparkTestView[] {
  const list = tests ?? [];
  return list.filter((test) => test._id !== testId);
}

export function replaceTest(tests: readonly SparkTestView[] | undefined, updated: SparkTestView): SparkTestView[] {
  return (tests ?? []).map((test) => (test._id === updated._id ? updated : test));
}
