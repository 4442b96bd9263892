import { useTranslation } from 'react-i18next';

import { SUPPORTED_LANGUAGES, toLanguage, type Language } from '../i18n';

/** Each language is named in itself, so a reader can find theirs whatever the current language is. */
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' };

/**
 * Two toggle buttons (EN / ES), named "EN (English)" and "ES (Español)". The change is cached by the language
 * detector in localStorage and in the `i18nextLng` cookie, and `<html lang>` follows (see i18n.ts). Signed in,
 * `onChange` makes the choice (it also saves it in the account).
 */
export function LanguageSwitcher({ onChange }: { onChange?: (language: Language) => void }) {
  const { t, i18n } = useTranslation();
  const current = toLanguage(i18n.resolvedLanguage ?? i18n.language);

  return (
    <div className="lang-switch" role="group" aria-label={t('language.label')}>
      {SUPPORTED_LANGUAGES.map((lng) => (
        <button
          key={lng}
          type="button"
          lang={lng}
          className="lang-switch__button"
          aria-pressed={current === lng}
          title={LANGUAGE_NAMES[lng]}
          onClick={() => {
            if (lng === current) return;
            if (onChange) onChange(lng);
            else void i18n.changeLanguage(lng);
          }}
        >
          {/* Named "EN (English)": what is seen, then the language's own name (WCAG 2.5.3, label in name). */}
          {lng.toUpperCase()}
          <span className="visually-hidden"> ({LANGUAGE_NAMES[lng]})</span>
        </button>
      ))}
    </div>
  );
}
