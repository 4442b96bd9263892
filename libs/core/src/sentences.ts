/**
 * Sentences of a paragraph, in Spanish and English: one rule for the documents' chunks (libs/knowledge)
 * and for what an answer quotes of them (libs/engine), so that "Brown v. Board of Education", "St. Johns
 * River" or "Sr. Muñoz" are cut nowhere.
 */

/**
 * Words that end with a period without ending a sentence, in Spanish and English (lower case,
 * without the period). "Sr. Muñoz", "p. ej.", "e.g. this", "No. 5".
 */
const ABBREVIATIONS = new Set([
  // es
  'sr',
  'sra',
  'srta',
  'sres',
  'dr',
  'dra',
  'd',
  'dña',
  'ud',
  'uds',
  'vd',
  'vds',
  'lic',
  'ing',
  'arq',
  'prof',
  'av',
  'avda',
  'c',
  'pág',
  'págs',
  'núm',
  'n',
  'nº',
  'tel',
  'telf',
  'aprox',
  'etc',
  'ej',
  'p',
  'pp',
  'vol',
  'cap',
  'art',
  'dpto',
  'depto',
  'admón',
  'cía',
  's.a',
  's.l',
  'ee.uu',
  'ss',
  'vs',
  'atte',
  'máx',
  'mín',
  // en
  'mr',
  'mrs',
  'ms',
  'st',
  'jr',
  'sr',
  'inc',
  'ltd',
  'co',
  'corp',
  'no',
  'fig',
  'figs',
  'e.g',
  'i.e',
  'approx',
  'dept',
  'est',
  'min',
  'max',
  'mt',
  'ft',
  'jan',
  'feb',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'u.s',
  'a.m',
  'p.m',
  'ph.d',
  'cf',
  'al',
]);

/** Candidate sentence ends: terminal punctuation, closing quotes or brackets, then white space. */
const BOUNDARY = /[.!?…]+["'”’»)\]]*\s+/gu;
/** What may start a sentence: a capital, a digit, Spanish opening marks, quotes, brackets, bullets. */
const SENTENCE_START = /^[\p{Lu}\p{Lt}\p{N}¿¡"'“‘«([•·\-–—*]/u;

function endsWithAbbreviation(before: string): boolean {
  const match = /(?:^|[\s(¿¡"'“‘«])([\p{L}][\p{L}.º]*)$/u.exec(before);
  if (!match) return false;
  const word = match[1].toLowerCase();
  // A lone letter before a period is an initial ("J. R. Jiménez") or a list marker ("a. …").
  if (/^\p{L}$/u.test(word)) return true;
  return ABBREVIATIONS.has(word);
}

/**
 * Splits a paragraph into sentences. A period ends a sentence only when what follows can start
 * one and what precedes is not a known abbreviation or an initial; numbers ("3.5", "9:00") never split.
 */
export function splitSentences(paragraph: string): string[] {
  const text = paragraph.trim();
  if (text === '') return [];
  const sentences: string[] = [];
  let start = 0;
  BOUNDARY.lastIndex = 0;
  for (let m = BOUNDARY.exec(text); m; m = BOUNDARY.exec(text)) {
    const end = m.index + m[0].length;
    const next = text.slice(end);
    if (!SENTENCE_START.test(next)) continue;
    // Only a bare period can belong to an abbreviation; "?", "!", "..." and a closing quote end the sentence.
    if (m[0].trim() === '.' && endsWithAbbreviation(text.slice(start, m.index))) continue;
    sentences.push(text.slice(start, end).trim());
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest !== '') sentences.push(rest);
  return sentences;
}
