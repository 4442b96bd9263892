import en from './locales/en/sparks.json';
import es from './locales/es/sparks.json';
import type { Language } from './errors';

const catalogues = { en, es };

/** What a new Spark starts with (spec §3), in its owner's language. */
export function sparkDefaults(language: Language, name?: string) {
  const t = catalogues[language];
  const finalName = name ?? t.defaultName;
  return {
    name: finalName,
    initialMessage: t.defaultInitialMessage,
    sysPrompt: t.defaultSysPrompt.replace('{name}', finalName).replace('{language}', t.languageName),
  };
}
