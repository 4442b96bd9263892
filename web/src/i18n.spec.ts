import i18next, { type i18n as I18n } from 'i18next';

import en from '../public/locales/en/common.json';
import es from '../public/locales/es/common.json';
import { i18nOptions, initI18n, LANGUAGE_STORAGE_KEY, toLanguage } from './i18n';

const resources = { en: { common: en }, es: { common: es } };

function start(): Promise<I18n> {
  return initI18n(i18next.createInstance(), { resources });
}

function cookieValue(name: string): string | undefined {
  return document.cookie
    .split('; ')
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

function browserLanguages(...languages: string[]) {
  jest.spyOn(window.navigator, 'languages', 'get').mockReturnValue(languages);
  jest.spyOn(window.navigator, 'language', 'get').mockReturnValue(languages[0]);
}

beforeEach(() => {
  localStorage.clear();
  document.cookie = `${LANGUAGE_STORAGE_KEY}=; Max-Age=0; Path=/`;
  document.documentElement.removeAttribute('lang');
  browserLanguages('en-US', 'en');
});

afterEach(() => jest.restoreAllMocks());

describe('i18n', () => {
  it('uses the spec loader settings', () => {
    expect(i18nOptions).toMatchObject({
      supportedLngs: ['en', 'es'],
      fallbackLng: 'en',
      load: 'languageOnly',
      maxRetries: 5,
      retryTimeout: 350,
      maxParallelReads: 10,
      backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
      detection: {
        order: ['localStorage', 'cookie', 'navigator'],
        caches: ['localStorage', 'cookie'],
        lookupLocalStorage: 'i18nextLng',
        lookupCookie: 'i18nextLng',
      },
    });
  });

  it('starts in the browser language and records it', async () => {
    browserLanguages('es-ES', 'es');
    const i18n = await start();
    expect(i18n.resolvedLanguage).toBe('es');
    expect(i18n.t('pages.chatHome.subtitle')).toBe(es.pages.chatHome.subtitle);
    expect(document.documentElement.lang).toBe('es');
    expect(localStorage.getItem('i18nextLng')).toBe('es');
    expect(cookieValue('i18nextLng')).toBe('es');
  });

  it('falls back to English for an unsupported browser language', async () => {
    browserLanguages('fr-FR', 'fr');
    const i18n = await start();
    expect(i18n.resolvedLanguage).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('prefers the stored language over the cookie and the browser', async () => {
    localStorage.setItem('i18nextLng', 'es');
    document.cookie = 'i18nextLng=en; Path=/';
    const i18n = await start();
    expect(i18n.resolvedLanguage).toBe('es');
  });

  it('reads the cookie when nothing is stored', async () => {
    document.cookie = 'i18nextLng=es; Path=/';
    const i18n = await start();
    expect(i18n.resolvedLanguage).toBe('es');
    expect(localStorage.getItem('i18nextLng')).toBe('es');
  });

  it('on a change updates <html lang>, localStorage and a one-year SameSite=Lax cookie', async () => {
    const i18n = await start();
    expect(document.documentElement.lang).toBe('en');
    const cookieWrites = jest.spyOn(document, 'cookie', 'set');

    await i18n.changeLanguage('es');

    expect(i18n.t('language.label')).toBe('Idioma');
    expect(document.documentElement.lang).toBe('es');
    expect(localStorage.getItem('i18nextLng')).toBe('es');
    expect(cookieWrites).toHaveBeenCalledWith('i18nextLng=es; Max-Age=31536000; Path=/; SameSite=Lax');

    await i18n.changeLanguage('en');
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem('i18nextLng')).toBe('en');
    expect(cookieWrites).toHaveBeenLastCalledWith('i18nextLng=en; Max-Age=31536000; Path=/; SameSite=Lax');
  });

  it('marks the language cookie Secure exactly when the app is served over https', () => {
    // jsdom serves http://localhost: not Secure here (a Secure cookie would not be stored over http).
    expect(i18nOptions.detection).toMatchObject({ cookieOptions: { secure: window.location.protocol === 'https:' } });
  });

  it('maps any code to a supported language', () => {
    expect(toLanguage('es-MX')).toBe('es');
    expect(toLanguage('EN_gb')).toBe('en');
    expect(toLanguage('de')).toBe('en');
    expect(toLanguage(undefined)).toBe('en');
  });

  it('reads the catalogues over HTTP, retrying a network failure and a 5xx', async () => {
    const body = JSON.stringify(en);
    const calls: string[] = [];
    const fetchMock = jest.fn((url: string) => {
      calls.push(url);
      const attempt = calls.filter((called) => called === url).length;
      if (attempt === 1) return Promise.reject(new TypeError('network down'));
      if (attempt === 2) return Promise.resolve({ ok: false, status: 502, text: () => Promise.resolve('') });
      return Promise.resolve({ ok: true, status: 200, text: () => Promise.resolve(body) });
    });
    Object.assign(globalThis, { fetch: fetchMock });
    try {
      const i18n = await initI18n(i18next.createInstance(), { ns: ['common'], retryTimeout: 10 });
      expect(i18n.t('pages.chatHome.subtitle')).toBe(en.pages.chatHome.subtitle);
      expect(calls.filter((url) => url === '/locales/en/common.json')).toHaveLength(3);
    } finally {
      Object.assign(globalThis, { fetch: undefined });
    }
  });
});
