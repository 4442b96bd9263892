import enAuth from '../../web/public/locales/en/auth.json';
import enCommon from '../../web/public/locales/en/common.json';
import esAuth from '../../web/public/locales/es/auth.json';
import esCommon from '../../web/public/locales/es/common.json';

/** The SPA's own catalogues, so the tests find the screens by the words a user reads in each language. */
export const catalogues = {
  en: { auth: enAuth, common: enCommon, languageName: 'English' },
  es: { auth: esAuth, common: esCommon, languageName: 'Español' },
} as const;

export type Lang = keyof typeof catalogues;

/** Fills a translation's {{placeholders}}. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key]));
}
