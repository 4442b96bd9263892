import { useTranslation } from 'react-i18next';

import type catalogue from '../../../public/locales/en/tests.json';

/** This feature's catalogue: public/locales/{lng}/tests.json (English is the reference for the keys). */
const TESTS_NS = 'tests';

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every key of the `tests` catalogue, e.g. 'toolbar.restart'. */
type TestsKey = Leaves<typeof catalogue>;
export type TestsT = (key: TestsKey, options?: Record<string, unknown>) => string;

type NamespaceTranslation = (ns: string) => { t: (key: string, options?: Record<string, unknown>) => string };

/**
 * `t` of the `tests` namespace, typed by the English catalogue. The app-wide typed resources
 * (src/i18next.d.ts) do not list this namespace, so react-i18next is called untyped here and the keys are
 * checked by {@link TestsKey} instead. It suspends until the catalogue is loaded, like `useTranslation`.
 */
export function useTestsT(): TestsT {
  const { t } = (useTranslation as unknown as NamespaceTranslation)(TESTS_NS);
  return t;
}
