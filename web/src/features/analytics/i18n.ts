import { useTranslation } from 'react-i18next';

import type catalogue from '../../../public/locales/en/analytics.json';

/**
 * This feature's catalogue: public/locales/{lng}/analytics.json (English is the reference for the keys). It is not
 * among the namespaces the app loads at start (src/i18n.ts): `useTranslation` fetches it when an analytics page first
 * renders, so the signed-in app's first load does not carry it.
 */
const ANALYTICS_NS = 'analytics';

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
/** A plural's keys (`times_one`, `times_other`) are asked for by their stem with a count (`times`). */
type Stem<K extends string> = K extends `${infer S}_${'one' | 'other'}` ? S : K;

/** Every key of the `analytics` catalogue, e.g. 'daily.title'. */
type AnalyticsKey = Stem<Leaves<typeof catalogue>>;
export type AnalyticsT = (key: AnalyticsKey, options?: Record<string, unknown>) => string;

type NamespaceTranslation = (ns: string) => { t: (key: string, options?: Record<string, unknown>) => string };

/**
 * `t` of the `analytics` namespace, typed by the English catalogue. The app-wide typed resources (src/i18next.d.ts)
 * do not list this namespace, so react-i18next is called untyped here and the keys are checked by
 * {@link AnalyticsKey} instead. It suspends until the catalogue is loaded, like `useTranslation`.
 */
export function useAnalyticsT(): AnalyticsT {
  const { t } = (useTranslation as unknown as NamespaceTranslation)(ANALYTICS_NS);
  return t;
}
