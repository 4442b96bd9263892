import type { Language } from '@sparks/contracts';
import en from './locales/en/engine.json';
import es from './locales/es/engine.json';

/** The product's languages (declared once, in `@sparks/contracts`). */
export type Lang = Language;
type Key = keyof typeof en;
const catalogues: Record<Lang, Record<Key, string>> = { en, es };

export function t(language: Lang, key: Key, params: Record<string, string | number> = {}): string {
  return catalogues[language][key].replace(/\{(\w+)\}/g, (m, k: string) =>
    params[k] !== undefined ? String(params[k]) : m,
  );
}
