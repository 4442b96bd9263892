import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@sparks/contracts/rules';
import i18next, { type i18n as I18n, type InitOptions } from 'i18next';
import LanguageDetector, { type DetectorOptions } from 'i18next-browser-languagedetector';
import FetchBackend, { type FetchOptions } from 'i18next-fetch-backend';
import { initReactI18next } from 'react-i18next';

import { secureCookies } from './lib/cookies';

/** docs/product.md §1/§9: Spanish and English, English is the fallback. */
export const SUPPORTED_LANGUAGES: readonly Language[] = ['en', 'es'];
/** The product's languages, declared once in `@sparks/contracts`. */
export type { Language };

/** Every namespace has a catalogue per language in public/locales/{lng}/{ns}.json. */
const NAMESPACES = [
  'common',
  'auth',
  'chat',
  'layout',
  'sparks',
  'objectives',
  'tests',
  'onboarding',
  'deploy',
  'billing',
  'admin',
  'privacy',
] as const;
const DEFAULT_NAMESPACE = 'common';

/** docs/product.md §3: the chosen language is kept in localStorage and in a cookie under this key. */
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';
const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The supported language a (possibly regional or unknown) code stands for: 'es-ES' → 'es', 'fr' → 'en'. */
export function toLanguage(code: string | undefined): Language {
  const base = code?.toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : FALLBACK_LANGUAGE;
}

const detectionOptions: DetectorOptions = {
  // The stored choice wins; the browser's languages are only a first-visit guess.
  order: ['localStorage', 'cookie', 'navigator'],
  caches: ['localStorage', 'cookie'],
  lookupLocalStorage: LANGUAGE_STORAGE_KEY,
  lookupCookie: LANGUAGE_STORAGE_KEY,
  cookieOptions: { path: '/', maxAge: LANGUAGE_COOKIE_MAX_AGE_SECONDS, sameSite: 'lax', secure: secureCookies() },
  // 'es-ES' → 'es', so only the language part is ever active and cached (load: 'languageOnly').
  convertDetectedLanguage: (lng) => lng.split(/[-_]/)[0].toLowerCase(),
};

/**
 * The catalogues are read with fetch (i18next-fetch-backend, a tenth of the size of the XHR backend). A 5xx is
 * retried by i18next; a network failure is turned into a 503 so that it is retried the same way.
 */
const backendOptions: Partial<FetchOptions> = {
  loadPath: '/locales/{{lng}}/{{ns}}.json',
  fetch: (input, init) =>
    fetch(input, init).catch(() => ({ ok: false, status: 503, text: () => Promise.resolve('') }) as Response),
};

export const i18nOptions: InitOptions<Partial<FetchOptions>> = {
  supportedLngs: [...SUPPORTED_LANGUAGES],
  fallbackLng: FALLBACK_LANGUAGE,
  load: 'languageOnly',
  ns: [...NAMESPACES],
  defaultNS: DEFAULT_NAMESPACE,
  // docs/product.md §7: up to 5 retries starting at 350 ms and doubling, at most 10 catalogue reads in parallel
  // (i18next's backend connector implements exactly this back-off).
  maxRetries: 5,
  retryTimeout: 350,
  maxParallelReads: 10,
  detection: detectionOptions,
  backend: backendOptions,
  interpolation: { escapeValue: false }, // React escapes already
  react: { useSuspense: true },
};

/** Keeps `<html lang>` in step with the active language (screen readers, hyphenation, spell-check). */
function bindDocumentLanguage(instance: I18n): void {
  instance.on('languageChanged', (lng: string) => {
    document.documentElement.lang = toLanguage(lng);
  });
}

/**
 * Initialises an i18next instance for the app. Catalogues come over HTTP unless `overrides.resources` is
 * given (tests). Changing the language later (`i18n.changeLanguage`) caches it in localStorage and the
 * cookie through the language detector and updates `<html lang>`.
 */
export async function initI18n(instance: I18n = i18next, overrides: Partial<InitOptions> = {}): Promise<I18n> {
  bindDocumentLanguage(instance);
  if (!overrides.resources) instance.use(FetchBackend);
  await instance
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({ ...i18nOptions, ...overrides });
  return instance;
}
