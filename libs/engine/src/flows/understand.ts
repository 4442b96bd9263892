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
  uno: 0,
  una: 0,
  primero: 0,
  primera: 0,
  first: 0,
  one: 0,
  '2': 1,
  dos: 1,
  segundo: 1,
  segunda: 1,
  second: 1,
  two: 1,
  '3': 2,
  tres: 2,
  tercero: 2,
  tercera: 2,
  third: 2,
  three: 2,
  '4': 3,
  cuatro: 3,
  cuarto: 3,
  cuarta: 3,
  fourth: 3,
  four: 3,
  '5': 4,
  cinco: 4,
  quinto: 4,
  quinta: 4,
  fifth: 4,
  five: 4,
  '6': 5,
  seis: 5,
  sexto: 5,
  sexta: 5,
  sixth: 5,
  six: 5,
};
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
  // A label or synonym said within a sentence ("I'd like the ocean one").
  const within = choices.filter((c) => names(c).some((n) => n.length >= 3 && ` ${said} `.includes(` ${n} `)));
  return within.length === 1 ? within[0] : undefined;
}

const YES = [
  'si',
  'sí',
  'yes',
  'y',
  's',
  'claro',
  'vale',
  'ok',
  'okay',
  'de acuerdo',
  'correcto',
  'sure',
  'yep',
  'yeah',
  'confirmo',
  'confirm',
  'adelante',
  'go ahead',
];
const NO = ['no', 'n', 'nope', 'nah', 'cancelar', 'cancel', 'mejor no', 'no gracias', 'no thanks'];

export function yesNo(text: string): 'yes' | 'no' | undefined {
  const s = normalize(text);
  if (YES.map(normalize).includes(s) || /^(si|yes|claro|vale|ok)\b/.test(s)) return 'yes';
  if (NO.map(normalize).includes(s) || /^no\b/.test(s)) return 'no';
  return undefined;
}

export const LANGUAGE_CHOICES: Choice[] = [
  { value: 'es', label: { es: 'Español', en: 'Spanish' }, synonyms: ['castellano', 'espanol', 'spanish', 'espagnol'] },
  { value: 'en', label: { es: 'Inglés', en: 'English' }, synonyms: ['ingles', 'english', 'anglais'] },
];

export function language(text: string): Lang | undefined {
  return matchChoice(text, LANGUAGE_CHOICES)?.value as Lang | undefined;
}

const SKIP = [
  'skip',
  'saltar',
  'omitir',
  'luego',
  'mas tarde',
  'later',
  'despues',
  'siguiente',
  'next',
  'continuar',
  'continue',
];
export const isSkip = (text: string) => SKIP.includes(normalize(text));

/** Agreement or refusal said to "change X?": keep the current value (issue 18 item 1). */
const KEEP = [
  'keep',
  'keep it',
  'keep this name',
  'keep the name',
  'keep the current name',
  'mantener',
  'mantenlo',
  'mantener este nombre',
  'mantener el nombre',
  'dejalo',
  'dejalo asi',
  'dejarlo asi',
  'esta bien',
  'esta bien asi',
  'asi esta bien',
  'asi',
  'asi vale',
  'me gusta',
  'me gusta asi',
  'perfecto',
  'genial',
  'bien',
  'igual',
  'el mismo',
  'sin cambios',
  'no cambiar',
  'no lo cambies',
  'nada',
  'ninguno',
  'fine',
  'its fine',
  'it s fine',
  'it is fine',
  'thats fine',
  'that s fine',
  'that is fine',
  'looks good',
  'good',
  'great',
  'perfect',
  'the same',
  'same',
  'as is',
  'leave it',
  'leave it as is',
  'no change',
  'no changes',
  'dont change it',
  'don t change it',
  'nothing',
  'none',
].map(normalize);

export function keepsCurrent(text: string): boolean {
  const said = normalize(text);
  return KEEP.includes(said) || yesNo(text) !== undefined;
}

/**
 * A value that does not read like a name: a question, a sentence (ends with a full stop after several words),
 * or more than six words. Such a value is confirmed before it is used (issue 18 item 1).
 */
export function unlikeName(text: string): boolean {
  const value = text.trim();
  const words = value.split(/\s+/).filter(Boolean);
  return /[?¿]/.test(value) || words.length > 6 || (words.length > 3 && /[.!]$/.test(value));
}
