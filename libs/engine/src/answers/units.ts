/**
 * A Spark's passages as the units an answer quotes (issue 29 item 2): each row of a list or table (an
 * item and its price, a day range and its hours) and each sentence of prose, read under its heading.
 * A question of a FAQ leads to the sentences that answer it; an answer the owner wrote is its question
 * and its answer. Units never cut a row or a sentence.
 */
import { isHeadingLine, LEADER, readFacts, splitRow, splitSentences, type BusinessFact } from '@sparks/core';
import type { Passage } from '../retrieval';
import { stem, spanishRoot, tokens, type Lang } from './words';

export interface UnitWord {
  folded: string;
  stem: string;
  /** Spanish words: the root their verb forms share (words.ts `spanishRoot`). */
  root?: string;
}

export interface Unit {
  /** Index in the knowledge's units. */
  id: number;
  passage: number;
  /** As the document writes it: a whole row or sentence. */
  text: string;
  /** The heading(s) it sits under, if any. */
  heading?: string;
  /** A row's label and value ("Saturday" / "8.00am - 4.00pm"). */
  row?: { label: string; value: string };
  facts: BusinessFact[];
  /** A title of the rows under it ("Hand-tied bouquets"): never an answer by itself. */
  title?: boolean;
  /** A question of a FAQ (or of an owner's answer): it is answered by the units of `answer`. */
  answer?: number[];
  lang: Lang;
  words: UnitWord[];
  headingWords: UnitWord[];
}

/** What an answer is drawn from: the passages and their units. */
export interface Knowledge {
  passages: Passage[];
  units: Unit[];
}

const wordsOf = (text: string, lang: Lang): UnitWord[] =>
  tokens(text).map((t) => ({
    folded: t.folded,
    stem: stem(t.folded, lang),
    ...(lang === 'es' ? { root: spanishRoot(t.folded) } : {}),
  }));

/** A line that titles the rows under it without being in capitals: short, no digit, no end mark ("Hand-tied bouquets"). */
const isSubheading = (line: string, next: string | undefined) =>
  next !== undefined &&
  line.length <= 40 &&
  !/\d/.test(line) &&
  !/[.!?;,]$/.test(line) &&
  line.split(/\s+/).length <= 5 &&
  splitRow(next) !== undefined &&
  splitRow(line) === undefined;

const normalizeLine = (line: string) => line.replace(/^\s*[-•·▪‣◦*–—]\s+/u, '').trim();

/** The units of one passage, with the facts of its lines (those stored at ingestion, else read now). */
function passageUnits(passage: Passage, index: number, lang: Lang, firstId: number, facts?: readonly object[]): Unit[] {
  const units: Unit[] = [];
  const known = (facts ?? readFacts(passage.content)) as BusinessFact[];
  const add = (text: string, heading: string | undefined, extra: Partial<Unit> = {}): Unit => {
    const unit: Unit = {
      id: firstId + units.length,
      passage: index,
      text,
      ...(heading ? { heading } : {}),
      facts: known.filter((f) => normalizeLine(f.line) === text),
      lang,
      words: wordsOf(text, lang),
      headingWords: heading ? wordsOf(heading, lang) : [],
      ...extra,
    };
    units.push(unit);
    return unit;
  };
  if (passage.origin === 'owner') {
    const cut = passage.content.indexOf('\n');
    const question = (cut < 0 ? passage.content : passage.content.slice(0, cut)).trim();
    const answer = (cut < 0 ? '' : passage.content.slice(cut + 1)).replace(/\s+/g, ' ').trim();
    const q = add(question, undefined, { answer: [firstId + 1] });
    add(answer || question, undefined);
    if (!answer) delete q.answer;
    return units;
  }
  const lines = passage.content.split('\n').map(normalizeLine).filter(Boolean);
  let headings: string[] = [];
  let sub: string | undefined;
  let pendingQuestion: Unit | undefined;
  lines.forEach((line, i) => {
    if (isHeadingLine(line)) {
      headings = i > 0 && isHeadingLine(lines[i - 1]) ? [...headings, line] : [line];
      sub = undefined;
      pendingQuestion = undefined;
      return;
    }
    const heading = [...headings, ...(sub ? [sub] : [])].join(' · ') || undefined;
    if (isSubheading(line, lines[i + 1])) {
      sub = line;
      add(line, headings.join(' · ') || undefined, { title: true });
      return;
    }
    const sentences = splitSentences(line);
    // A row is one unit, its dot leaders and value included (a sentence rule would cut "… ... 1,10 EUR").
    const row = sentences.length === 1 || LEADER.test(line) ? splitRow(line) : undefined;
    if (row) {
      const unit = add(line, heading, { row });
      if (pendingQuestion) pendingQuestion.answer = [unit.id];
      pendingQuestion = undefined;
      return;
    }
    const made = sentences.map((s) => add(s, heading));
    // A question answered in what follows: on the same line ("Do you…? Yes, …") or on the next.
    if (pendingQuestion) pendingQuestion.answer = [made[0].id];
    pendingQuestion = undefined;
    made.forEach((u, k) => {
      if (!/\?["”»)]?$/.test(u.text)) return;
      const rest = made.slice(k + 1);
      const until = rest.findIndex((r) => /\?["”»)]?$/.test(r.text));
      const answer = (until < 0 ? rest : rest.slice(0, until)).map((r) => r.id);
      if (answer.length > 0) u.answer = answer;
      else pendingQuestion = u;
    });
  });
  return units;
}

/** The knowledge of a set of passages: every unit, in order. */
export function buildKnowledge(
  passages: Passage[],
  langs: Lang[],
  facts: Array<readonly object[] | undefined>,
): Knowledge {
  const units: Unit[] = [];
  passages.forEach((p, i) => units.push(...passageUnits(p, i, langs[i], units.length, facts[i])));
  return { passages, units };
}
