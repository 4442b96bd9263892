/**
 * How well each unit of a Spark's knowledge answers a question (issue 29): per term, the best weight
 * with which the unit holds it (its own word 1, a synonym 0.6, another spelling 0.8…), weighed by how
 * telling the term is in this Spark (BM25's inverse document frequency over the units); the unit's
 * heading counts at half; what kind of answer the question wants (a price, hours, the address) adds to
 * the units that hold one.
 */
import type { Question, Term } from './question';
import { TYPO } from './question';
import type { Knowledge, Unit, UnitWord } from './units';
import { editDistance, soundKey, typoAllowance, type Lang } from './words';

export interface Match {
  question: Question;
  knowledge: Knowledge;
  /** [term][unit]: the weight with which the unit's text holds the term. */
  weights: number[][];
  /** [term][unit]: the same for the unit's heading. */
  headings: number[][];
  idf: number[];
  /** Terms no unit holds (after other spellings were tried). */
  missing: number[];
}

/** How many times a sequence of stems occurs in the words, in order, at most two words apart (a phrase). */
function countRuns(words: UnitWord[], stems: string[], root: boolean): number {
  const is = (w: UnitWord, s: string) => w.stem === s || (root && w.root === s);
  let count = 0;
  for (let i = 0; i < words.length; i++) {
    if (!is(words[i], stems[0])) continue;
    let at = i;
    let ok = true;
    for (let k = 1; k < stems.length && ok; k++) {
      const next = words.slice(at + 1, at + 4).findIndex((w) => is(w, stems[k]));
      if (next < 0) ok = false;
      else at += next + 1;
    }
    if (ok) count += 1;
  }
  return count;
}

/** How many times words (of a unit in `lang`) hold a term by its best alternative. */
function holdCount(term: Term, words: UnitWord[], lang: Lang): number {
  let best = 0;
  let count = 0;
  for (const alt of term.alts) {
    if (alt.lang !== lang || alt.weight < best) continue;
    const n = countRuns(words, alt.stems, alt.root === true);
    if (n > 0 && (alt.weight > best || n > count)) [best, count] = [alt.weight, n];
  }
  return count;
}

/** The weight with which words (of a unit in `lang`) hold a term. */
function holdWeight(term: Term, words: UnitWord[], lang: Lang): number {
  let best = 0;
  for (const alt of term.alts) {
    if (alt.lang !== lang || alt.weight <= best) continue;
    if (countRuns(words, alt.stems, alt.root === true) > 0) best = alt.weight;
    else if (alt.stems.length === 1 && alt.stems[0].length >= 5 && !alt.root) {
      // A word inside a longer one: "bebés" in "portabebés".
      const s = alt.stems[0];
      if (words.some((w) => w.folded.length >= s.length + 3 && w.folded.includes(s)))
        best = Math.max(best, alt.weight * 0.7);
    }
  }
  return best;
}

/** BM25's inverse document frequency, from how many of `n` units hold the term. */
const idfOf = (df: number, n: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** Other spellings of a term that no unit holds: words of the documents a typo away from it. */
function typoAlts(term: Term, knowledge: Knowledge): Term['alts'] {
  if (term.folded.includes(' ') || /\d/.test(term.folded)) return [];
  const max = typoAllowance(term.folded.length);
  if (max === 0) return [];
  const key = soundKey(term.folded);
  const seen = new Set<string>();
  const alts: Term['alts'] = [];
  for (const unit of knowledge.units) {
    for (const w of unit.words) {
      const id = `${unit.lang}:${w.stem}`;
      if (seen.has(id) || w.folded.length < 4 || Math.abs(w.folded.length - term.folded.length) > max) continue;
      seen.add(id);
      const wk = soundKey(w.folded);
      // A typo keeps the first letter ("sourdogh"), or the sound ("keratina" for "queratina").
      const sameSound = wk === key && key.length >= 4;
      if (sameSound || (w.folded[0] === term.folded[0] && editDistance(term.folded, w.folded, max) <= max)) {
        alts.push({ stems: [w.stem], lang: unit.lang, weight: TYPO });
      }
    }
  }
  return alts;
}

export function matchQuestion(question: Question, knowledge: Knowledge): Match {
  const { units } = knowledge;
  const weigh = (term: Term) => ({
    text: units.map((u) => holdWeight(term, u.words, u.lang)),
    heading: units.map((u) => (u.headingWords.length ? holdWeight(term, u.headingWords, u.lang) : 0)),
  });
  const weights: number[][] = [];
  const headings: number[][] = [];
  const missing: number[] = [];
  question.terms.forEach((term, t) => {
    let w = weigh(term);
    if (!w.text.some((x) => x > 0) && !w.heading.some((x) => x > 0) && !term.intents.length) {
      const extra = typoAlts(term, knowledge);
      if (extra.length > 0) {
        term.alts.push(...extra);
        w = weigh(term);
      }
    }
    weights.push(w.text);
    headings.push(w.heading);
    if (!w.text.some((x) => x > 0) && !w.heading.some((x) => x > 0)) missing.push(t);
  });
  const n = units.length;
  const idf = weights.map((ws) => idfOf(ws.filter((x) => x >= 0.5).length, n));
  return { question, knowledge, weights, headings, idf, missing };
}

/** A term that names the subject of the question (not an intent, not an everyday word, not a day). */
export const isSubject = (t: Term) => !t.intents.length && !t.light && !t.day;

export interface UnitScore {
  unit: Unit;
  score: number;
  /** Weighted share of the question's subject terms the unit holds (its heading at half). */
  coverage: number;
  /** The same share for the unit's passage as a whole (prose spreads a question over its sentences). */
  passageCoverage: number;
}

const PRICE_IN = /[£$€]\s?\d|\d\s?(?:€|eur\b|euros?\b|usd\b|mxn\b|pesos?\b|%)|\b(free|gratis)\b/i;
const TIME_IN = /\b\d{1,2}[:.h]\d{2}\b|\b\d{1,2}\s?(am|pm)\b|\b(closed|cerrad[oa]s?)\b/i;
const DURATION_IN =
  /\b\d+\s*(?:(?:-|to|a)\s*\d+\s*)?(?:[\p{L}]+\s+)?(minutes?|hours?|days?|weeks?|months?|minutos?|horas?|d[ií]as?|semanas?|meses|mes)\b/iu;

/** What the unit holds of the kind of answer the question wants. */
function intentBonus(question: Question, unit: Unit): number {
  const i = question.intents;
  let bonus = 0;
  const has = (kind: string, type?: string) =>
    unit.facts.some((f) => f.kind === kind && (!type || (f as { type?: string }).type === type));
  if (i.has('price') && (has('price') || PRICE_IN.test(unit.text))) bonus += 1.5;
  if ((i.has('hours') || i.has('open') || i.has('close') || i.has('time')) && (has('hours') || TIME_IN.test(unit.text)))
    bonus += has('hours') ? 1.5 : 0.8;
  if (i.has('where') && has('contact', 'address')) bonus += 2.5;
  if (i.has('phone') && (has('contact', 'phone') || has('contact', 'whatsapp'))) bonus += 2.5;
  if (i.has('whatsapp') && has('contact', 'whatsapp')) bonus += 2.5;
  if (i.has('email') && has('contact', 'email')) bonus += 2.5;
  if (i.has('web') && has('contact', 'web')) bonus += 1.5;
  if (i.has('payment') && has('payment')) bonus += 1.5;
  if (i.has('duration') && DURATION_IN.test(unit.text)) bonus += 1;
  // "How do I book?": a way to do it (a website, a phone, an e-mail).
  if (i.has('how') && unit.facts.some((f) => f.kind === 'contact' && f.type !== 'address')) bonus += 1;
  return bonus;
}

/**
 * A unit that cannot hold the kind of answer asked for weighs less: "How much…?" is not answered by a
 * sentence without a price, "What time…?" by one without a time.
 */
function kindFit(question: Question, unit: Unit): number {
  const i = question.intents;
  if (i.has('price') && !PRICE_IN.test(unit.text) && !unit.facts.some((f) => f.kind === 'price')) return 0.6;
  if ((i.has('time') || i.has('close')) && !TIME_IN.test(unit.text) && !/\d/.test(unit.text)) return 0.7;
  return 1;
}

/**
 * Tuning of the unit scores (bench/RESULTS.md):
 * - PASSAGE: how much the passage around a unit counts (what its other rows and sentences hold of the
 *   question): prose spreads a question's words over neighbouring sentences.
 * - NEIGHBOUR: share of a term held by the unit before or after that counts for a unit's coverage.
 * - NAME: weight of a name (a word the question writes with a capital) in the coverage; IDF_CAP: the most a
 *   term weighs there (an absent term weighs this much).
 * - COVERED: the share of a unit's score kept whatever its coverage (the rest grows with it).
 * @public
 */
export const SCORING = { PASSAGE: 0.35, NEIGHBOUR: 0.5, NAME: 3, IDF_CAP: 2.5, COVERED: 0.5 };

/** Every unit scored for the question, best first (a question of a FAQ scores for the answer it leads to). */
export function scoreUnits(match: Match): UnitScore[] {
  const { question, knowledge, weights, headings, idf } = match;
  const subjects = question.terms.map(isSubject);
  // A name weighs more: one the documents never mention says the question is about something else.
  const cw = idf.map((x, t) =>
    subjects[t] ? Math.min(x, SCORING.IDF_CAP) * (question.terms[t].name ? SCORING.NAME : 1) : 0,
  );
  const total = cw.reduce((a, b) => a + b, 0);
  const factor = question.terms.map((term, t) => (subjects[t] ? 1 : term.day ? 0.8 : 0.4));
  const units = knowledge.units;
  // What each passage holds of each term, at best.
  const passageHeld = knowledge.passages.map(() => question.terms.map(() => 0));
  for (const u of units)
    question.terms.forEach((_, t) => {
      passageHeld[u.passage][t] = Math.max(passageHeld[u.passage][t], weights[t][u.id], 0.5 * headings[t][u.id]);
    });
  const passageScore = passageHeld.map((held) => held.reduce((s, h, t) => s + h * idf[t] * factor[t], 0));
  const passageCoverage = passageHeld.map((held) =>
    total > 0 ? held.reduce((s, h, t) => s + h * cw[t], 0) / total : 1,
  );
  return units
    .map((unit) => {
      const u = unit.id;
      const before = units[u - 1]?.passage === unit.passage ? u - 1 : -1;
      const after = units[u + 1]?.passage === unit.passage ? u + 1 : -1;
      let score = 0;
      let covered = 0;
      question.terms.forEach((term, t) => {
        const held = Math.max(weights[t][u], 0.5 * headings[t][u]);
        // A term said again in the unit ("car park … car park") counts a little more.
        if (weights[t][u] > 0 && subjects[t])
          score += 0.15 * idf[t] * Math.min(2, holdCount(term, unit.words, unit.lang) - 1);
        const near =
          SCORING.NEIGHBOUR * Math.max(before >= 0 ? weights[t][before] : 0, after >= 0 ? weights[t][after] : 0);
        score += held * idf[t] * factor[t];
        covered += Math.max(held, near) * cw[t];
      });
      // Consecutive subject terms found together (the question's wording).
      for (let t = 0; t + 1 < question.terms.length; t++) {
        if (subjects[t] && subjects[t + 1] && weights[t][u] > 0 && weights[t + 1][u] > 0)
          score += 0.3 * Math.min(idf[t], idf[t + 1]);
      }
      if (score > 0) {
        score += SCORING.PASSAGE * passageScore[unit.passage];
        score = (score + intentBonus(question, unit)) * kindFit(question, unit);
      }
      // A question of a FAQ worded like the customer's is the surest sign of its answer.
      if (unit.answer?.length) score *= 1.15;
      const coverage = total > 0 ? covered / total : 1;
      // Of two units, the one that holds more of what is asked.
      score *= SCORING.COVERED + (1 - SCORING.COVERED) * coverage;
      return { unit, score, coverage, passageCoverage: passageCoverage[unit.passage] };
    })
    .sort((a, b) => b.score - a.score || a.unit.id - b.unit.id);
}
