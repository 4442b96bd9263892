import type { Language } from '@sparks/core';

/** A document's language: one of the product's languages. */
export type DocumentLanguage = Language;

// Frequent function words that the other language does not share (no "a", "no", "me", "he"…).
const SPANISH = new Set(
  (
    'de la que el en es los del se las por un para con una su al lo como más pero sus le ya este sí porque ' +
    'esta entre cuando muy sin sobre también fue había era ser hay son desde todo nos durante todos uno les ' +
    'contra otros ese eso ante ellos esto mí antes algunos qué unos yo otro otras otra él tanto esa estos mucho ' +
    'quienes nada muchos cual poco ella estar estas algunas algo nosotros mi mis tú te ti tu tus ellas usted ' +
    'nuestro nuestra puede pueden donde dónde cómo cuándo hasta tiene tienen está están y o'
  ).split(' '),
);
const ENGLISH = new Set(
  (
    'the of and to in is that for it as was with be by on not this are or his from at which but have an ' +
    'they you were her she there been their has would will what all if can who more when we your our its ' +
    'about than into them these some could out other so up only do does should after also how over may ' +
    'such where most any those through while because both each between under since without how why'
  ).split(' '),
);

const WORD = /[\p{L}]+/gu;
/** `detectLanguage` reads this many characters of a text, no more. */
export const LANGUAGE_SAMPLE = 20_000;

/**
 * Spanish or English, from the function words of a text (the first 20,000 characters are plenty).
 * Undefined when the text has too few of them to tell, e.g. a table of numbers.
 */
export function detectLanguage(text: string): DocumentLanguage | undefined {
  let es = 0;
  let en = 0;
  for (const match of text.slice(0, LANGUAGE_SAMPLE).toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (SPANISH.has(word)) es += 1;
    else if (ENGLISH.has(word)) en += 1;
  }
  // Letters only Spanish uses are strong evidence; one per ten words is typical of Spanish prose.
  const marks = (text.slice(0, LANGUAGE_SAMPLE).match(/[ñáéíóúü¿¡]/giu) ?? []).length;
  es += marks * 0.5;
  if (es + en < 3) return undefined;
  return es >= en ? 'es' : 'en';
}

/** The PostgreSQL text-search configuration for a language (one rule, in `@sparks/contracts`). */
export { textSearchConfig } from '@sparks/core';
