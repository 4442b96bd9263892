import type { Language } from './errors';
import { t } from './texts';

/** What a new Spark starts with (docs/product.md §3), in its owner's language. */
export function sparkDefaults(language: Language, name?: string) {
  const finalName = name ?? t(language, 'sparks.defaultName');
  return {
    name: finalName,
    initialMessage: t(language, 'sparks.defaultInitialMessage'),
    sysPrompt: t(language, 'sparks.defaultSysPrompt', {
      name: finalName,
      language: t(language, 'sparks.languageName'),
    }),
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

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A Spark's instructions after it is renamed from `from` to `to` (issue 31): every mention of the old name, as a whole
 * word, becomes the new one; instructions that do not name it then start with "Your name is …" in the Spark's
 * language, so that they always carry its current name.
 */
export function renamedPrompt(prompt: string, from: string, to: string, language: Language): string {
  const name = to.trim();
  if (!prompt.trim()) return sparkDefaults(language, name).sysPrompt;
  const old = from.trim();
  const word = (n: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(n)}(?![\\p{L}\\p{N}])`, 'gu');
  const renamed = old && old !== name ? prompt.replace(word(old), () => name) : prompt;
  if (word(name).test(renamed)) return renamed;
  return `${t(language, 'sparks.namePrompt', { name })} ${renamed.trimStart()}`;
}
