/** SWR cache keys of the Sparks data; lists and single Sparks are found again by these predicates. */

export interface SparksListArgs {
  page: number;
  limit: number;
  pinned?: boolean;
}

export type SparksListKey = readonly ['sparks', SparksListArgs];
export type SparkKey = readonly ['spark', string];
export type TestsKey = readonly ['tests', string];

export const sparksListKey = (args: SparksListArgs): SparksListKey => ['sparks', args];
export const sparkKey = (sparkId: string): SparkKey => ['spark', sparkId];
export const testsKey = (sparkId: string): TestsKey => ['tests', sparkId];

export function isSparksListKey(key: unknown): key is SparksListKey {
  return Array.isArray(key) && key[0] === 'sparks';
}
