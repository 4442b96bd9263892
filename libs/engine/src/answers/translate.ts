/**
 * A question put in words of the other language, word by word through the concepts (concepts.ts), for
 * full-text search over a large Spark whose documents are in that language ("¿A qué hora cerráis los
 * sábados?" → "close saturday"). Words outside every concept (names, brands) are kept as they are.
 */
import { CONCEPTS } from './concepts';
import { stem, tokens, type Lang } from './words';

let index: Map<string, number> | undefined;

function conceptOf(word: string, lang: Lang): number | undefined {
  if (!index) {
    index = new Map();
    CONCEPTS.forEach((c, i) => {
      for (const l of ['en', 'es'] as const)
        for (const w of c[l]) if (!w.includes(' ')) index!.set(`${l}:${stem(w.toLowerCase(), l)}`, i);
    });
  }
  return index.get(`${lang}:${stem(word, lang)}`);
}

/** The question in `to`'s words; undefined when none of its words could be put in them. */
export function translate(question: string, from: Lang, to: Lang): string | undefined {
  let changed = false;
  const words = tokens(question).map((t) => {
    const c = conceptOf(t.folded, from);
    if (c === undefined || CONCEPTS[c].light) return t.raw;
    const target = CONCEPTS[c][to][0];
    if (!target) return t.raw;
    changed = true;
    return target;
  });
  return changed ? words.join(' ') : undefined;
}
