import { texts } from '@sparks/core';
import type { Choice, Lang } from './types';

/** Lower case, no accents, no punctuation, single spaces. */
export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}#\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const ORDINALS: Record<string, number> = {
  '1': 0,
  '1st': 0,
  uno: 0,
  una: 0,
  primero: 0,
  primera: 0,
  first: 0,
  one: 0,
  '2': 1,
  '2nd': 1,
  dos: 1,
  segundo: 1,
  segunda: 1,
  second: 1,
  two: 1,
  '3': 2,
  '3rd': 2,
  tres: 2,
  tercero: 2,
  tercera: 2,
  third: 2,
  three: 2,
  '4': 3,
  '4th': 3,
  cuatro: 3,
  cuarto: 3,
  cuarta: 3,
  fourth: 3,
  four: 3,
  '5': 4,
  '5th': 4,
  cinco: 4,
  quinto: 4,
  quinta: 4,
  fifth: 4,
  five: 4,
  '6': 5,
  '6th': 5,
  seis: 5,
  sexto: 5,
  sexta: 5,
  sixth: 5,
  six: 5,
};
/** "The last one", "el último". */
const LAST = new Set(['last', 'ultimo', 'ultima']);
const FILLER = new Set([
  'la',
  'el',
  'los',
  'las',
  'the',
  'option',
  'opcion',
  'numero',
  'number',
  'quiero',
  'i',
  'want',
  'prefiero',
  'prefer',
  'de',
  'a',
  'an',
]);

/** A word that names a position in a list ("2", "second", "segundo", "last"). */
export const isOrdinal = (word: string) => ORDINALS[word] !== undefined || LAST.has(word);

/** Finds the choice a person meant: its value, its label in either language, a synonym or its position. */
export function matchChoice<C extends { value: string; label: { es: string; en: string }; synonyms?: string[] }>(
  text: string,
  choices: C[],
): C | undefined {
  const said = normalize(text);
  if (!said) return undefined;
  const names = (c: C) => [c.value, c.label.es, c.label.en, ...(c.synonyms ?? [])].map(normalize).filter(Boolean);
  const exact = choices.find((c) => names(c).includes(said));
  if (exact) return exact;
  const words = said.split(' ').filter((w) => !FILLER.has(w));
  if (words.length === 1 && ORDINALS[words[0]] !== undefined) return choices[ORDINALS[words[0]]];
  if (words.length === 1 && LAST.has(words[0])) return choices.at(-1);
  // A label or synonym said within a sentence ("I'd like the ocean one").
  const within = choices.filter((c) => names(c).some((n) => n.length >= 3 && ` ${said} `.includes(` ${n} `)));
  return within.length === 1 ? within[0] : undefined;
}

export const LANGUAGE_CHOICES: Choice[] = [
  {
    value: 'es',
    label: texts('assistants.languageChoices.es.label'),
    synonyms: ['castellano', 'espanol', 'spanish', 'espagnol'],
  },
  { value: 'en', label: texts('assistants.languageChoices.en.label'), synonyms: ['ingles', 'english', 'anglais'] },
];

export function language(text: string): Lang | undefined {
  return matchChoice(text, LANGUAGE_CHOICES)?.value as Lang | undefined;
}
