/**
 * Which passage, and which sentence in it, answers a question (issue 17; docs/decisions.md, "The
 * offline answer leads with the sentence that answers"). Retrieval in PostgreSQL finds candidate
 * passages by stem prefix; this reranks them in the process: BM25-style term weights (IDF from the
 * Spark's sampled chunks), the best sentence of each passage (weights of the question's terms it
 * holds, the question's word pairs kept together, what kind of answer the question asks for), and
 * an honest coverage: the weighted share of the question's terms the best sentence holds.
 */
import { splitSentences } from '@sparks/core';

/** A search term of the question with its weight in this Spark. */
export interface WeightedTerm {
  /** The stem PostgreSQL gives (`to_tsvector`), folded (no accents, lower case). */
  stem: string;
  /** A shorter stem prefix that also matches, at a lower weight (null when the stem is short). */
  prefix: string | null;
  /** Inverse document frequency among the Spark's sampled chunks. */
  idf: number;
  /** Folded stems of the words the lexicon (lexicon.ts) lets the term match too, whole stems only. */
  alts?: string[];
  /** A `generic` lexicon term (a price, the hours): it counts in the coverage only beside a specific one. */
  generic?: boolean;
  /**
   * What a match by one of `alts` counts: RANKING.ALT_MATCH when the question is in the documents'
   * language (a synonym), 1 when it is in the other one (a translation is its only way in).
   */
  altWeight?: number;
}

/** Tuning, chosen on the development articles of bench/answer-quality.mjs (bench/RESULTS.md). */
export const RANKING = {
  /** BM25 saturation and length normalisation. */
  K1: 1.2,
  B: 0.75,
  /**
   * A word that only begins with the stem's shorter prefix counts this much ("deb" of "deber" also
   * begins "debutaron": at 0.6 such loose matches made questions of another subject look covered).
   */
  PREFIX_MATCH: 0.4,
  /**
   * A word the lexicon relates to the term (a synonym, a day of "weekdays") counts this much when the
   * question is in the Spark's language: a paraphrase is less sure than the question's own word ("¿Hacéis
   * pizzas a domicilio…?" is not answered by "Hacemos envíos…"). A question in the other language is
   * matched by translations at full weight (WeightedTerm.altWeight).
   */
  ALT_MATCH: 0.6,
  /**
   * Below this many sampled chunks, how many chunks hold a term says nothing about how telling it is
   * (in a one-page Spark every word it has is "in every chunk"): all terms weigh the same there.
   */
  MIN_CHUNKS_FOR_IDF: 3,
  /** Upper bound of a term's weight in the coverage share (an absent term weighs this much). */
  COVERAGE_CAP: 2.5,
  /** Below this coverage (of the best sentence) the documents do not answer: "not covered". */
  MIN_COVERAGE: 0.25,
  /** Bonus per pair of consecutive question terms found next to each other in a sentence. */
  PAIR: 0.5,
  /** Bonus when the sentence holds the kind of answer the question asks for (a number, a year, a name). */
  ANSWER_KIND: 0.6,
  /** How much the best sentence counts in the passage's score, beside the passage's BM25. */
  SENTENCE: 1.0,
  /**
   * Share of a term held by the sentence before or after that counts for a sentence's coverage: a
   * question's words often spread over two sentences ("Peyton Manning …. He is also the oldest …").
   * The sentence's own score (which one answers) does not borrow from its neighbours.
   */
  WINDOW_COVER: 0.5,
  /**
   * Factor of a name's weight (a word the question writes with a capital) in the coverage share: a
   * name the documents never mention says the question is about something else; one they do, that
   * it is about them.
   */
  NAME: 3,
} as const;

export const fold = (w: string): string =>
  w
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

const WORD = /[\p{L}\p{N}]+(?:[.,:'’][\p{L}\p{N}]+)*/gu;

/** The words of a text, folded, with their original form. */
function words(text: string): Array<{ raw: string; folded: string }> {
  return [...text.matchAll(WORD)].map((m) => ({ raw: m[0], folded: fold(m[0]) }));
}

const isNumber = (s: string) => /^\d+$/.test(s);

/**
 * How well one folded word matches a term: 1 by its stem, ALT_MATCH by a word the lexicon relates to it,
 * PREFIX_MATCH by its shorter prefix, else 0.
 */
export function matchWeight(word: string, term: WeightedTerm): number {
  if (isNumber(term.stem)) return word === term.stem || word.replace(/[.,]/g, '') === term.stem ? 1 : 0;
  if (word.startsWith(term.stem)) return 1;
  if (term.alts?.some((a) => word.startsWith(a))) return term.altWeight ?? RANKING.ALT_MATCH;
  if (term.prefix && word.startsWith(term.prefix)) return RANKING.PREFIX_MATCH;
  return 0;
}

/** BM25's inverse document frequency, from how many of `n` chunks hold the term. */
export const idf = (df: number, n: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** Per term: its best match weight in the words, and its first position there. */
function matchTerms(ws: Array<{ folded: string }>, terms: WeightedTerm[]) {
  return terms.map((t) => {
    let best = 0;
    let count = 0;
    const positions: number[] = [];
    ws.forEach((w, i) => {
      const m = matchWeight(w.folded, t);
      if (m > 0) {
        count += m;
        positions.push(i);
        best = Math.max(best, m);
      }
    });
    return { best, count, positions };
  });
}

type AnswerKind = 'time' | 'number' | 'year' | 'name' | undefined;

/** What the question asks for, from its first words (English and Spanish). */
export function answerKind(question: string): AnswerKind {
  const q = fold(question).replace(/^[¿¡\s]+/, '');
  if (/\b(what time|at what time|until what time|till what time|a que hora|hasta que hora|desde que hora)\b/.test(q))
    return 'time';
  if (/\b(when|what year|which year|in what year|cuando|en que ano|que ano|en que fecha)\b/.test(q)) return 'year';
  if (
    /\b(how many|how much|how long|how old|what percentage|price|cost|cuantos|cuantas|cuanto|cuanta|que porcentaje|precio)\b/.test(
      q,
    )
  )
    return 'number';
  if (/^(who|whom|whose|quien|quienes|a quien|de quien)\b/.test(q)) return 'name';
  return undefined;
}

function holdsKind(sentence: string, kind: AnswerKind, questionWords: Set<string>): boolean {
  switch (kind) {
    case 'time':
      return /\b\d{1,2}[:.h]\d{2}\b|\b\d{1,2}\s?(am|pm|h)\b/i.test(sentence);
    case 'year':
      return /\b(1\d{3}|20\d{2})\b/.test(sentence);
    case 'number':
      return (
        /\d/.test(sentence) ||
        /\b(one|two|three|four|five|six|seven|eight|nine|ten|dozen|hundred|thousand|million|billion|uno|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|cien|mil|millones)\b/i.test(
          sentence,
        )
      );
    case 'name':
      // A capitalised word, not the sentence's first, that the question does not already name.
      return words(sentence)
        .slice(1)
        .some((w) => /^\p{Lu}/u.test(w.raw) && !questionWords.has(w.folded));
    case undefined:
      return false;
  }
}

/**
 * Which of the terms stand for a name in the question: a word written with a capital letter that
 * does not begin the question ("Newcastle", "GPhC", "Lutero"), matched by the term's whole stem.
 */
export function nameTerms(question: string, terms: WeightedTerm[]): boolean[] {
  const names = words(question.replace(/^[\s¿¡"“'(]+/, ''))
    .slice(1)
    .filter((w) => /^\p{Lu}/u.test(w.raw))
    .map((w) => w.folded);
  return terms.map((t) => names.some((n) => n.startsWith(t.stem)));
}

export interface SentenceScore {
  text: string;
  /** Index of the sentence in its passage. */
  index: number;
  score: number;
  /** Weighted share of the question's terms the sentence holds. */
  coverage: number;
}

/**
 * The sentences of a passage: its lines (lists and tables keep their rows), each cut at sentence
 * ends as the documents' chunks are (`splitSentences`: not at "Brown v. Board" or "Sr. Muñoz").
 */
export function sentencesOf(content: string): string[] {
  return content.split(/\n+/).flatMap((line) => splitSentences(line));
}

/** A line that titles what follows: short, no digit, not ending as a sentence or a label does. */
const isHeading = (line: string) => words(line).length <= 6 && !/\d/.test(line) && !/[.!?:;,]$/.test(line.trim());

/**
 * Scores each sentence of a passage for the question. A heading's terms count, at half their
 * weight, for the lines under it that do not hold them ("Prices" above "Croissant: 1.20 euros");
 * a heading itself is not an answer when lines follow it.
 */
export function scoreSentences(content: string, terms: WeightedTerm[], question: string): SentenceScore[] {
  const kind = answerKind(question);
  const qWords = new Set(words(question).map((w) => w.folded));
  const names = nameTerms(question, terms);
  const sentences = sentencesOf(content);
  let heading: number[] | undefined;
  const parts = sentences.map((text, index) => {
    const ws = words(text);
    const m = matchTerms(ws, terms);
    const held = m.map((x) => x.best);
    const under = heading;
    const own = isHeading(text) && index + 1 < sentences.length;
    if (own) heading = held;
    const inherited = under ? held.map((h, i) => Math.max(h, under[i] * 0.5)) : held;
    return { text, m, held, inherited, own };
  });
  return parts.map(({ text, m, held, inherited, own }, index) => {
    let score = inherited.reduce((s, h, i) => s + h * terms[i].idf, 0);
    // Consecutive question terms close together in the sentence (the question's wording).
    for (let i = 0; i + 1 < terms.length; i++) {
      const a = m[i].positions;
      const b = m[i + 1].positions;
      if (a.some((p) => b.some((q) => Math.abs(q - p) <= 2)))
        score += RANKING.PAIR * Math.min(terms[i].idf, terms[i + 1].idf);
    }
    if (held.some((h) => h > 0) && kind && holdsKind(text, kind, qWords)) score += RANKING.ANSWER_KIND;
    if (own) score *= 0.5;
    const around = withNeighbours(
      inherited,
      parts[index - 1]?.inherited,
      parts[index + 1]?.inherited,
      RANKING.WINDOW_COVER,
    );
    return { text, index, score, coverage: coverage(around, terms, names) };
  });
}

/** What a sentence holds of each term, with a share of what the sentences before and after hold. */
export function withNeighbours(
  held: number[],
  before: number[] | undefined,
  after: number[] | undefined,
  share: number,
): number[] {
  return held.map((h, i) => Math.max(h, share * Math.max(before?.[i] ?? 0, after?.[i] ?? 0)));
}

export interface Ranked<P> {
  passage: P;
  score: number;
  /** Weighted share of the question's terms the passage holds (0–1). */
  coverage: number;
  best: SentenceScore;
  sentences: SentenceScore[];
}

/**
 * Weighted share of the terms held, each weighing its IDF up to COVERAGE_CAP (names RANKING.NAME times
 * that). A question's `generic` terms (a price, the hours) count only when a specific one is held too:
 * "How much is a pizza?" is not answered by a price list that has no pizza.
 */
export function coverage(held: number[], terms: WeightedTerm[], names: boolean[] = []): number {
  if (terms.some((t) => !t.generic) && !held.some((h, i) => h > 0 && !terms[i].generic)) return 0;
  const w = terms.map((t, i) => Math.min(t.idf, RANKING.COVERAGE_CAP) * (names[i] ? RANKING.NAME : 1));
  const total = w.reduce((a, b) => a + b, 0);
  return total > 0 ? held.reduce((s, h, i) => s + h * w[i], 0) / total : 0;
}

/** Reranks passages for the question, best first. */
export function rankPassages<P extends { content: string }>(
  passages: P[],
  terms: WeightedTerm[],
  question: string,
): Array<Ranked<P>> {
  if (passages.length === 0) return [];
  const lengths = passages.map((p) => words(p.content).length);
  const avg = lengths.reduce((a, b) => a + b, 0) / lengths.length || 1;
  return passages
    .map((passage, i) => {
      const ws = words(passage.content);
      const m = matchTerms(ws, terms);
      const bm25 = m.reduce((s, x, t) => {
        const tf = x.count;
        return (
          s +
          (terms[t].idf * tf * (RANKING.K1 + 1)) / (tf + RANKING.K1 * (1 - RANKING.B + (RANKING.B * lengths[i]) / avg))
        );
      }, 0);
      const sentences = scoreSentences(passage.content, terms, question);
      const best = sentences.reduce(
        (a, b) => (b.score > a.score ? b : a),
        sentences[0] ?? { text: '', index: 0, score: 0, coverage: 0 },
      );
      return {
        passage,
        score: bm25 + RANKING.SENTENCE * best.score,
        coverage: coverage(
          m.map((x) => x.best),
          terms,
          nameTerms(question, terms),
        ),
        best,
        sentences,
      };
    })
    .sort((a, b) => b.score - a.score);
}
