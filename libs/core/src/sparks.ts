import en from './locales/en/sparks.json';
import es from './locales/es/sparks.json';
import type { Language } from './errors';

const catalogues = { en, es };

/** What a new Spark starts with (docs/product.md §3), in its owner's language. */
export function sparkDefaults(language: Language, name?: string) {
  const t = catalogues[language];
  const finalName = name ?? t.defaultName;
  return {
    name: finalName,
    initialMessage: t.defaultInitialMessage,
    sysPrompt: t.defaultSysPrompt.replace('{name}', finalName).replace('{language}', t.languageName),
  };
}

/** Name and options of a new Spark (type DOC): the one recipe for the api and the assistants. */
export function newSparkValues(language: Language, name?: string) {
  const d = sparkDefaults(language, name);
  return {
    name: d.name,
    options: {
      isTest: false,
      initialMessage: d.initialMessage,
      level: 'PUBLIC' as const,
      sysPrompt: d.sysPrompt,
      language,
    },
  };
}
