/**
 * Words as the answer engine compares them (issue 29 item 4): folded (lower case, no accents), stemmed
 * with the Snowball stemmers PostgreSQL's `english` and `spanish` configurations use (the
 * `snowball-stemmers` package gives the same stems), Spanish verb forms brought to one root
 * (abrís / abren / abrimos → abr; cierran / cerráis → cerr), a spelling key for typos ("orkid" and
 * "orchid", "keratina" and "queratina" share one), and the question's language.
 */
import { newStemmer } from 'snowball-stemmers';

export type Lang = 'en' | 'es';

export const fold = (w: string): string =>
  w
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

const STEMMERS = { en: newStemmer('english'), es: newStemmer('spanish') };
const stemCache = { en: new Map<string, string>(), es: new Map<string, string>() };

/** The Snowball stem of a word in a language, folded. */
export function stem(word: string, lang: Lang): string {
  const cache = stemCache[lang];
  let s = cache.get(word);
  if (s === undefined) {
    s = fold(STEMMERS[lang].stem(word.toLowerCase()));
    if (cache.size > 50_000) cache.clear();
    cache.set(word, s);
  }
  return s;
}

/** A word of a text: as written, folded, and where it starts. Numbers keep their separators ("7:30", "4,50"). */
export interface Token {
  raw: string;
  folded: string;
  start: number;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?(?:[.,:][\p{N}]+)*/gu;

export function tokens(text: string): Token[] {
  return [...text.matchAll(WORD)].map((m) => ({ raw: m[0], folded: fold(m[0]).replace(/['’]s$/, ''), start: m.index }));
}

/**
 * Spanish verb endings (folded), longest first: what is left of a form once one is taken off is its root
 * ("abrimos" → "abr", "cerráis" → "cerr", "repartís" → "repart"). Nouns lose their gender and number
 * ("tartas" → "tart") the same way, which is what matching wants. The past subjunctive's -arais / -ierais are
 * left out: as rare in questions as they are likely to eat a present form ("reparáis" is "repar" + "áis").
 */
const ES_ENDINGS = [
  'aremos',
  'eremos',
  'iremos',
  'ariamos',
  'eriamos',
  'iriamos',
  'abamos',
  'iamos',
  'asteis',
  'isteis',
  'ariais',
  'eriais',
  'iriais',
  'abais',
  'ieron',
  'iendo',
  'ando',
  'aron',
  'aran',
  'eran',
  'iran',
  'arian',
  'erian',
  'irian',
  'arias',
  'erias',
  'irias',
  'aria',
  'eria',
  'iria',
  'amos',
  'emos',
  'imos',
  'ados',
  'adas',
  'idos',
  'idas',
  'aste',
  'iste',
  'aban',
  'abas',
  'ais',
  'eis',
  'ado',
  'ada',
  'ido',
  'ida',
  'aba',
  'ian',
  'ias',
  'ar',
  'er',
  'ir',
  'an',
  'en',
  'as',
  'es',
  'is',
  'os',
  'ia',
  'io',
  'aje',
  'ajes',
  'aciones',
  'acion',
  'a',
  'e',
  'o',
  'i',
].sort((a, b) => b.length - a.length);

/** Irregular roots of common verbs, to the root of their infinitive. */
const ES_IRREGULAR: Record<string, string> = {
  hag: 'hac',
  hic: 'hac',
  hiz: 'hac',
  hech: 'hac',
  pus: 'pon',
  pong: 'pon',
  tuv: 'ten',
  teng: 'ten',
  pud: 'pod',
  quis: 'quer',
  dig: 'dec',
  dij: 'dec',
  dich: 'dec',
  vin: 'ven',
  veng: 'ven',
  traig: 'tra',
  traj: 'tra',
  salg: 'sal',
  sup: 'sab',
  sep: 'sab',
  cup: 'cab',
  quep: 'cab',
  hub: 'hab',
  estuv: 'est',
  anduv: 'and',
  conduj: 'conduc',
  conduzc: 'conduc',
  ofrezc: 'ofrec',
  conozc: 'conoc',
  parezc: 'parec',
  vay: 'ir',
  fu: 'ir',
  v: 'ir',
  ve: 'ver',
  vist: 'ver',
  abiert: 'abr',
  escrit: 'escrib',
  devuelt: 'devolv',
  vuelt: 'volv',
  puest: 'pon',
  muert: 'mor',
};

/**
 * The root a Spanish word shares with the other forms of its verb (or noun): its ending taken off,
 * stem vowel changes undone (cierr → cerr, pued → pod, pid → ped is left: too ambiguous), irregular
 * roots mapped. At least three letters; a short word is its own root.
 */
export function spanishRoot(folded: string): string {
  if (folded.length <= 3 || /\d/.test(folded)) return folded;
  let root = folded;
  for (const e of ES_ENDINGS) {
    if (folded.endsWith(e) && folded.length - e.length >= 3) {
      root = folded.slice(0, -e.length);
      break;
    }
  }
  if (ES_IRREGULAR[root]) return ES_IRREGULAR[root];
  // -zc- and -g- of the first person ("ofrezco", "tengo", "salgo") and diphthongs of stem changes.
  return root
    .replace(/ie(?=[a-z]{1,3}$)/, 'e')
    .replace(/ue(?=[a-z]{1,3}$)/, 'o')
    .replace(/(?<=[nl])g$/, '');
}

/**
 * A spelling key: folded, sounds written alike brought together (ph → f, ch → c, k and qu → c, z and c
 * before e/i → s, v → b, y → i, h dropped, doubled letters once), so that "orkid" / "orchid",
 * "keratina" / "queratina", "vacasiones" / "vacaciones", "domisilio" / "domicilio" meet.
 */
export function soundKey(folded: string): string {
  return folded
    .replace(/ph/g, 'f')
    .replace(/ch/g, 'c')
    .replace(/qu/g, 'c')
    .replace(/k/g, 'c')
    .replace(/c(?=[ei])/g, 's')
    .replace(/z/g, 's')
    .replace(/v/g, 'b')
    .replace(/y/g, 'i')
    .replace(/h/g, '')
    .replace(/(.)\1+/g, '$1');
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions), up to `max` (then max + 1). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const prev2: number[] = Array.from({ length: b.length + 1 }, () => 0);
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    prev2.splice(0, prev2.length, ...prev);
    prev = cur;
  }
  return prev[b.length];
}

/** How far a misspelt word may be from the word meant: none under 4 letters, 1 under 8, else 2. */
export const typoAllowance = (length: number): number => (length < 4 ? 0 : length < 8 ? 1 : 2);

/** Words that say which language a question is in (folded), and how strongly. */
const ES_MARKS = new Set(
  'que de la el los las en y por para con una un es se del al hay tienen teneis tiene abren abris abre cierran cerrais cuanto cuanta cuantos cuesta cuestan donde cuando como puedo puede podeis pueden hacen haceis hace vuestro vuestra su sus mi mis esta estan estais tu le lo me nos os si sale vale precio horario hora'.split(
    ' ',
  ),
);
const EN_MARKS = new Set(
  'the of and to in is are do does you your what when where how much many can could i my me we our for on at with there have has open close time price cost does it an be this that'.split(
    ' ',
  ),
);

/**
 * The language a question is written in: Spanish punctuation (¿ ¡) or letters (ñ) decide at once;
 * otherwise the words each language's marks recognise; `fallback` (the Spark's language) on a tie.
 */
export function questionLanguage(text: string, fallback: Lang): Lang {
  if (/[¿¡ñ]/i.test(text)) return 'es';
  let es = 0;
  let en = 0;
  for (const t of tokens(text)) {
    if (ES_MARKS.has(t.folded)) es += 1;
    if (EN_MARKS.has(t.folded)) en += 1;
  }
  if (/[áéíóú]/i.test(text)) es += 1;
  if (es === en) return fallback;
  return es > en ? 'es' : 'en';
}
