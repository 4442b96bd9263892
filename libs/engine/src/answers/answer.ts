/**
 * The offline answer to a customer's question from a Spark's knowledge (issue 29; docs/decisions.md,
 * "Answers from business documents"): honest first — a question whose subject the documents never
 * mention is "not covered" —, then what the business facts answer (hours of a day, the address, a payment
 * method), then the row or sentence of the documents that answers best, whole, with its source. The
 * reply's own words are in the question's language; what it quotes stays as the document writes it.
 */
import { escapeMarkdown } from '@sparks/contracts';
import { type PriceFact, t } from '@sparks/core';
import { citeLabel, smallTalk, type Composition } from '../composer';
import type { Passage } from '../retrieval';
import { contactAnswer, hoursAnswer, paymentAnswer, type FactAnswer } from './from-facts';
import { isSubject, matchQuestion, scoreUnits, type Match, type UnitScore } from './match';
import { readQuestion } from './question';
import type { Knowledge, Unit } from './units';
import { questionLanguage, spanishRoot, stem, type Lang } from './words';

/**
 * Tuning, chosen on the development half of the small-business set and checked on XQuAD
 * (bench/RESULTS.md); exported for the benchmarks' --set.
 * - MIN_COVERAGE: share of the question's subject (its weighted terms) the answering unit must hold.
 * - MISSING_SHARE: a question whose subject terms the documents lack in this share (or any of them, for a
 *   question of SHORT_QUESTION subject terms or fewer) is not covered; one a term longer that lacks one is
 *   answered only by a unit covering DESPITE_MISSING of it.
 * - PASSAGE_COVER: what the answering unit's passage covers of the question counts this much against
 *   MIN_COVERAGE (prose spreads a question's words over neighbouring sentences).
 * - TIE: price rows scoring within this share of the best are listed with it ("¿Cuánto cobráis por peinar
 *   a una novia?": the trial and the wedding day).
 * @public
 */
export const ANSWERING = {
  MIN_COVERAGE: 0.3,
  MISSING_SHARE: 0.6,
  SHORT_QUESTION: 2,
  DESPITE_MISSING: 0.6,
  PASSAGE_COVER: 1,
  TIE: 0.85,
} as const;

export interface AnswerInput {
  question: string;
  /** The Spark's language: the question's when it does not tell. */
  language: Lang;
  initialMessage: string;
  knowledge: Knowledge;
  hasDocuments: boolean;
  audience?: 'owner' | 'visitor';
}

export interface KnowledgeAnswer extends Composition {
  /** The language the reply speaks (the question's). */
  lang: Lang;
  /** The units it quotes, best first (none when not covered). */
  units: Unit[];
  /** Every unit scored (for the passages a model is sent). */
  scores: UnitScore[];
  /** The passages the units belong to. */
  passages: Passage[];
  /** Why it is not covered: the documents lack the question's subject, or no unit holds enough of it. */
  reason?: 'subject' | 'coverage';
}

const endSentence = (s: string) => (/[.!?…:;]["”»)]?$/.test(s) ? s : `${s}.`);

/** A row as an answer says it: its dot leaders as a colon ("Baguette: £2.10"). */
const rowText = (u: Unit): string => (u.row ? `${u.row.label}: ${u.row.value}` : u.text);

/** Why a question is not covered, if it is not: the documents lack its subject. */
function lacksSubject(match: Match, bestCoverage: number): boolean {
  const terms = match.question.terms;
  const count = terms.filter(isSubject).length;
  const missing = match.missing.filter((i) => isSubject(terms[i]) && !terms[i].name);
  if (missing.length === 0) return count === 0 && match.question.intents.size === 0;
  if (count <= ANSWERING.SHORT_QUESTION || missing.length / count >= ANSWERING.MISSING_SHARE) return true;
  // A short question missing one of its words is answered only by a unit that holds the rest well.
  return count <= ANSWERING.SHORT_QUESTION + 1 && bestCoverage < ANSWERING.DESPITE_MISSING;
}

const isPriceRow = (u: Unit) => u.facts.some((f): f is PriceFact => f.kind === 'price');

/** The units the best-scoring unit answers with: itself, the answer of a FAQ question, or near-tie price rows. */
function generalAnswer(match: Match, scores: UnitScore[]): FactAnswer | undefined {
  const best = scores.find((s) => s.score > 0 && !s.unit.title);
  if (!best || Math.max(best.coverage, ANSWERING.PASSAGE_COVER * best.passageCoverage) < ANSWERING.MIN_COVERAGE)
    return undefined;
  const units = match.knowledge.units;
  if (best.unit.answer?.length) return { units: best.unit.answer.map((id) => units[id]) };
  if (isPriceRow(best.unit) && match.question.intents.has('price')) {
    const ties = scores.filter(
      (s) =>
        s.unit !== best.unit &&
        isPriceRow(s.unit) &&
        s.coverage >= best.coverage - 0.01 &&
        s.score >= best.score * ANSWERING.TIE,
    );
    return { units: [best.unit, ...ties.slice(0, 2).map((s) => s.unit)] };
  }
  return { units: [best.unit] };
}

function compose(input: AnswerInput, lang: Lang, found: FactAnswer, scores: UnitScore[]): KnowledgeAnswer {
  const { knowledge } = input;
  const rows = found.units.map(rowText);
  const sameLine = found.units.every((u) => !u.row) && new Set(found.units.map((u) => u.passage)).size === 1;
  const body = endSentence(rows.join(sameLine ? ' ' : '; '));
  // A lead that announces a list ends with a colon; one that answers is followed by the quote after a dash.
  const text = found.lead ? `${found.lead}${found.lead.endsWith(':') ? ' ' : ' — '}${body}` : body;
  // Each passage once, with the language of its units; a source in the other language says so.
  const quoted = new Map<number, Lang>(found.units.map((u) => [u.passage, u.lang]));
  const passages = [...quoted.keys()].map((i) => knowledge.passages[i]);
  const other = ` (${t(lang, 'engine.inLanguage', { language: t(lang, 'engine.otherLanguageName') })})`;
  const cite = [
    ...new Set(
      [...quoted].map(([i, docLang]) => {
        const p = knowledge.passages[i];
        return citeLabel(p, lang, input.audience) + (docLang !== lang && p.origin !== 'owner' ? other : '');
      }),
    ),
  ].join('; ');
  return {
    kind: 'answer',
    text: `${escapeMarkdown(text)}\n\n— *${cite}*`,
    sources: passages.map((p) => ({
      documentId: p.documentId,
      document: p.documentName,
      page: p.page,
      ...(p.origin === 'owner' ? { addedBy: 'owner' as const } : {}),
    })),
    lang,
    units: found.units,
    scores,
    passages: knowledge.passages,
  };
}

/** The offline answer to a question from a Spark's knowledge. */
export function answerFromKnowledge(input: AnswerInput): KnowledgeAnswer {
  const talk = smallTalk(input.question);
  const lang = questionLanguage(input.question, input.language);
  if (talk === 'greeting')
    return {
      kind: 'greeting',
      text: escapeMarkdown(input.initialMessage),
      sources: [],
      lang,
      units: [],
      scores: [],
      passages: [],
    };
  if (talk)
    return {
      kind: 'greeting',
      text: t(lang, talk === 'thanks' ? 'engine.welcome' : 'engine.goodbye'),
      sources: [],
      lang,
      units: [],
      scores: [],
      passages: [],
    };
  const notCovered = (scores: UnitScore[] = [], reason?: KnowledgeAnswer['reason']): KnowledgeAnswer => ({
    kind: 'notCovered',
    text: t(lang, input.hasDocuments ? 'engine.notCovered' : 'engine.noDocuments'),
    sources: [],
    lang,
    units: [],
    scores,
    passages: input.knowledge.passages,
    ...(reason ? { reason } : {}),
  });
  if (input.knowledge.units.length === 0) return notCovered();
  const question = readQuestion(input.question, lang, knownIn(input.knowledge));
  const match = matchQuestion(question, input.knowledge);
  const scores = scoreUnits(match);
  // "Can I pay cash?" of a cashless salon: the ways to pay, even when the method asked is not among them.
  const payment = paymentAnswer(match);
  if (payment) return compose(input, lang, payment, scores);
  // A question missing a word is answered only by a unit (not a passage) that holds the rest well.
  if (lacksSubject(match, scores.find((x) => !x.unit.title)?.coverage ?? 0)) return notCovered(scores, 'subject');
  const found = hoursAnswer(match) ?? contactAnswer(match) ?? generalAnswer(match, scores);
  return found && found.units.length > 0 ? compose(input, lang, found, scores) : notCovered(scores, 'coverage');
}

const vocabularies = new WeakMap<Knowledge, (folded: string) => boolean>();

/** Whether a word is in the knowledge (headings too), by its form, its stem or its Spanish root. */
function knownIn(knowledge: Knowledge): (folded: string) => boolean {
  let known = vocabularies.get(knowledge);
  if (!known) {
    const forms = new Set<string>();
    for (const u of knowledge.units)
      for (const w of [...u.words, ...u.headingWords]) {
        forms.add(w.folded);
        forms.add(`${u.lang}:${w.stem}`);
        if (w.root) forms.add(`root:${w.root}`);
      }
    known = (folded: string) =>
      forms.has(folded) ||
      forms.has(`en:${stem(folded, 'en')}`) ||
      forms.has(`es:${stem(folded, 'es')}`) ||
      forms.has(`root:${spanishRoot(folded)}`);
    vocabularies.set(knowledge, known);
  }
  return known;
}
