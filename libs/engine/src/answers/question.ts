/**
 * A customer's question as the answer engine reads it (issue 29 item 4): its language, its terms — the
 * words and phrases that say what it is about, each with what it may match in the documents (its own
 * stem, the root of its verb forms, its synonyms and translations from concepts.ts, its other spellings)
 * — what kind of answer it wants (a price, the hours, the address) and the days it names.
 */
import { daysIn, type DaySet } from '@sparks/core';
import { CONCEPTS, type Concept, type Intent } from './concepts';
import { STOP_WORDS } from './stopwords';
import { editDistance, fold, soundKey, spanishRoot, stem, tokens, typoAllowance, type Lang, type Token } from './words';

/** Something a term matches in a unit: a stem sequence in a language (or a Spanish root), at a weight. */
interface Alt {
  stems: string[];
  lang: Lang;
  weight: number;
  /** Match Spanish words by `spanishRoot` instead of their stem. */
  root?: boolean;
}

export interface Term {
  text: string;
  folded: string;
  intents: Intent[];
  /** An everyday word: the documents need not mention it for the question to be answered. */
  light: boolean;
  /** Written with a capital inside the question: a name (a place, a brand). */
  name: boolean;
  /** A day of the week, or days ("weekdays"): read as such, not as a subject. */
  day: boolean;
  /** The concepts (concepts.ts) it belongs to. */
  concepts: number[];
  alts: Alt[];
}

export interface Question {
  text: string;
  lang: Lang;
  terms: Term[];
  intents: Set<Intent>;
  days: DaySet;
  /** Morning or afternoon, when the question says ("por la tarde", "saturday morning"). */
  part?: 'morning' | 'afternoon' | 'midday';
}

/** Weight of a synonym in the question's own language (a paraphrase is less sure than its own word). */
const SYNONYM = 0.6;
/** Weight of a match by another spelling of the word (a typo). */
export const TYPO = 0.8;

const STOP = STOP_WORDS;

interface ConceptWord {
  concept: number;
  words: string[];
  stems: string[];
  lang: Lang;
  role: 'word' | 'also';
}

let conceptIndex:
  { words: ConceptWord[]; byStem: Map<string, ConceptWord[]>; byRoot: Map<string, ConceptWord> } | undefined;

/** The concepts' words and phrases, stemmed once per process. */
function concepts() {
  if (conceptIndex) return conceptIndex;
  const words: ConceptWord[] = [];
  CONCEPTS.forEach((c: Concept, concept) => {
    for (const lang of ['en', 'es'] as const) {
      const add = (text: string, role: 'word' | 'also') => {
        const ws = tokens(text).map((t) => t.folded);
        if (ws.length > 0) words.push({ concept, words: ws, stems: ws.map((w) => stem(w, lang)), lang, role });
      };
      for (const w of c[lang]) add(w, 'word');
      for (const w of c.also?.[lang] ?? []) add(w, 'also');
    }
  });
  const byStem = new Map<string, ConceptWord[]>();
  for (const w of words) {
    if (w.role !== 'word') continue;
    const key = `${w.lang}:${w.stems[0]}`;
    byStem.set(key, [...(byStem.get(key) ?? []), w]);
  }
  // Spanish words by the root of their verb forms: "traigáis" finds "traer", "cierrais" finds "cerrar".
  const byRoot = new Map<string, ConceptWord>();
  for (const w of words) {
    if (w.role === 'word' && w.lang === 'es' && w.words.length === 1 && !byRoot.has(spanishRoot(w.words[0])))
      byRoot.set(spanishRoot(w.words[0]), w);
  }
  conceptIndex = { words, byStem, byRoot };
  return conceptIndex;
}

/** The concept phrases that begin at token `i` (longest first), read in `lang`. */
function phrasesAt(toks: Token[], i: number, lang: Lang): ConceptWord[] {
  const first = stem(toks[i].folded, lang);
  const candidates = concepts().byStem.get(`${lang}:${first}`) ?? [];
  return candidates
    .filter((c) => c.stems.length <= toks.length - i && c.stems.every((s, k) => s === stem(toks[i + k].folded, lang)))
    .sort((a, b) => b.stems.length - a.stems.length);
}

const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/**
 * A concept word the token is a misspelling of ("tiem" → "time", "wher" → "where", "vacasiones" →
 * "vacaciones"): within the typo allowance, its first letter kept (or the same sound key); among equals,
 * the one sharing the longest beginning.
 */
function conceptTypo(folded: string, lang: Lang): ConceptWord | undefined {
  const max = typoAllowance(folded.length);
  if (max === 0) return undefined;
  const key = soundKey(folded);
  let best: ConceptWord | undefined;
  let bestRank = -Infinity;
  for (const c of concepts().words) {
    if (c.words.length !== 1 || c.role !== 'word' || c.lang !== lang) continue;
    const w = c.words[0];
    if (w.length < 4 || Math.abs(w.length - folded.length) > max) continue;
    const sameSound = soundKey(w) === key;
    if (w[0] !== folded[0] && !sameSound) continue;
    const d = sameSound ? 0 : editDistance(folded, w, max);
    if (d > max) continue;
    const rank = -d * 10 + commonPrefix(w, folded);
    if (rank > bestRank) [best, bestRank] = [c, rank];
  }
  return best;
}

/** What a term matches: its own stem (and root), and every other word of its concepts. */
function altsOf(stems: string[], folded: string[], lang: Lang, conceptIds: number[]): Alt[] {
  const other: Lang = lang === 'en' ? 'es' : 'en';
  const alts: Alt[] = [{ stems, lang, weight: 1 }];
  // The same word in the other language: names, brands and shared words ("croissant", "Bizum").
  alts.push({ stems: folded.map((f) => stem(f, other)), lang: other, weight: 0.9 });
  if (lang === 'es' && folded.length === 1)
    alts.push({ stems: [spanishRoot(folded[0])], lang: 'es', weight: 0.9, root: true });
  for (const c of concepts().words) {
    if (!conceptIds.includes(c.concept)) continue;
    if (c.lang === lang && c.stems.join(' ') === stems.join(' ')) continue;
    // A synonym in the question's language weighs less than the word itself; a translation is the
    // only way a question reaches a document in the other language, and weighs as much.
    alts.push({ stems: c.stems, lang: c.lang, weight: c.lang === lang ? SYNONYM : 1 });
  }
  return alts;
}

/**
 * Reads a question. `known` (whether a word is in the Spark's documents, by its form, stem or root) lets a
 * misspelt word that is in no document and in no concept be taken for the concept word it is closest to.
 */
export function readQuestion(text: string, lang: Lang, known: (folded: string) => boolean): Question {
  const toks = tokens(text);
  const terms: Term[] = [];
  const intents = new Set<Intent>();
  const other: Lang = lang === 'en' ? 'es' : 'en';
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    // Concept phrases and words first: "how much", "masa madre", "apple pay", "entre semana".
    const isStop = STOP[lang].has(t.folded);
    // A stop word starts a concept phrase ("sin gluten", "how much") or is itself a concept word ("when"),
    // never a word whose stem it happens to share ("para" is not "parar").
    const phrase = [...phrasesAt(toks, i, lang), ...phrasesAt(toks, i, other)].find(
      (c) => !isStop || c.words.length > 1 || c.words[0] === t.folded,
    );
    let found: ConceptWord | undefined = phrase;
    let consumed = phrase ? phrase.stems.length : 1;
    if (!found && isStop) continue;
    if (!found && (lang === 'es' || /[áéíóúñ]/.test(t.raw)) && t.folded.length > 3)
      found = concepts().byRoot.get(spanishRoot(t.folded));
    if (!found && !known(t.folded) && !/\d/.test(t.folded)) {
      found = conceptTypo(t.folded, lang);
      consumed = 1;
    }
    const words = toks.slice(i, i + consumed);
    const wordLang = found?.lang ?? lang;
    const key = found ? `${found.lang}:${found.stems.join(' ')}` : undefined;
    const ids = key
      ? concepts()
          .words.filter((c) => c.role === 'word' && `${c.lang}:${c.stems.join(' ')}` === key)
          .map((c) => c.concept)
      : [];
    const termIntents = [...new Set(ids.map((id) => CONCEPTS[id].intent).filter((x): x is Intent => !!x))];
    const light =
      ids.some((id) => CONCEPTS[id].light) && !ids.some((id) => !CONCEPTS[id].light && !CONCEPTS[id].intent);
    for (const x of termIntents) intents.add(x);
    const folded = found && found !== phrase ? found.words : words.map((w) => w.folded);
    const stems = found ? found.stems : folded.map((f) => stem(f, wordLang));
    const isName = i > 0 && /^\p{Lu}/u.test(t.raw) && !ids.length;
    // A time or an amount the customer names ("at 4pm") is what they ask about, not what the documents must say.
    const value = consumed === 1 && /^\d/.test(t.folded);
    // Two words of one concept ("reservar cita") are one term: the concept is asked once.
    const same =
      ids.length > 0 &&
      terms.find((x) => x.concepts.length === ids.length && ids.every((id) => x.concepts.includes(id)));
    if (same) {
      // Its own word still counts in full ("mechas balayage": both are asked).
      same.alts.push({ stems, lang: wordLang, weight: 1 });
      i += consumed - 1;
      continue;
    }
    terms.push({
      concepts: ids,
      text: words.map((w) => w.raw).join(' '),
      folded: folded.join(' '),
      intents: termIntents,
      light: light || value,
      name: isName,
      day: daysIn(words.map((w) => w.raw).join(' '), true).days.length > 0,
      alts: altsOf(stems, folded, wordLang, ids),
    });
    i += consumed - 1;
  }
  // "How much notice…?", "How much time…?": a quantity of something else than money.
  if (
    intents.has('price') &&
    (intents.has('duration') || terms.some((x) => x.concepts.some((c) => CONCEPTS[c].en.includes('notice'))))
  )
    intents.delete('price');
  const f = fold(text);
  const part = /\b(afternoon|evening|tarde|tardes)\b/.test(f)
    ? 'afternoon'
    : /\b(midday|lunchtime|mediodia)\b/.test(f)
      ? 'midday'
      : /\b(morning|mornings|por la manana|de la manana|mananas)\b/.test(f)
        ? 'morning'
        : undefined;
  return { text, lang, terms, intents, days: daysIn(text, true), ...(part ? { part } : {}) };
}

const FACT_INTENTS: Intent[] = [
  'price',
  'hours',
  'open',
  'close',
  'time',
  'where',
  'phone',
  'whatsapp',
  'email',
  'web',
  'payment',
];

/** Whether a question asks for something the business facts answer (a price, the hours, the address…). */
export function asksForFacts(text: string, lang: Lang): boolean {
  const { intents, days } = readQuestion(text, lang, () => true);
  return days.days.length > 0 || FACT_INTENTS.some((i) => intents.has(i));
}
