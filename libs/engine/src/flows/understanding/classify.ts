/**
 * The understanding layer's rules: what a reply to a step is — agree, disagree, keep as is, change X to Y, skip, a
 * value, a question or something else — with a confidence, in English and Spanish, without a language model. Every
 * step reads the reply through this before it acts on it (run.ts `read`); with a model configured, a reading of low
 * confidence may be asked of the model instead (the `model` port).
 */

import type { Choice } from '../types';
import { isOrdinal, matchChoice } from '../understand';
import { FIELD_CHOICES, type Field } from './fields';
import {
  AGREE,
  CHANGE_HEADS,
  CONNECTORS,
  DISAGREE,
  FIELD_WORDS,
  FILLERS,
  GREETING_CUES,
  INSTRUCTION_STARTS,
  KEEP,
  NAME_IS,
  NAME_VERBS,
  NO_IDEA,
  POINTERS,
  QUESTION_STARTS,
  SKIP,
} from './phrases';
import { Vocabulary, type Words } from './text';

type ReplyKind = 'agree' | 'disagree' | 'keep' | 'change' | 'skip' | 'value' | 'question' | 'other';

export interface Reading {
  kind: ReplyKind;
  /** How sure the reading is, 0 to 1. */
  confidence: number;
  /** `change`: what to change. */
  field?: Field;
  /** `value`: the answer (a choice's value at a choice step); `change`: the new value. */
  value?: string;
  /** `value`: it does not look like what was asked (a name that is a sentence, a greeting that is an instruction). */
  unusual?: boolean;
}

/** What the step asks, as far as reading the reply goes. */
export type Ask =
  /** A yes or no ("Is it right?", "Do you like how it looks?"). */
  | { kind: 'confirm' }
  /** A value typed in (`keep`: the step has a current one the owner may keep). */
  | { kind: 'value'; field: Field | 'text'; keep?: boolean }
  /** One of a list (`field`: the Spark's value it sets, if any). */
  | { kind: 'choice'; choices: Choice[]; field?: Field }
  /** Waiting for something to happen (a document read, a test judged). */
  | { kind: 'wait' }
  /** Free questions (the help steps). */
  | { kind: 'free' };

type Category = 'agree' | 'disagree' | 'keep' | 'skip' | 'filler';
type Said = Exclude<Category, 'filler'>;

const CATEGORIES: Array<[Category, string[]]> = [
  ['agree', AGREE],
  ['disagree', DISAGREE],
  ['keep', KEEP],
  ['skip', SKIP],
  ['filler', FILLERS],
];
const phraseCategories = new Map<string, Set<Category>>();
const vocabulary = new Vocabulary(
  [
    ...CATEGORIES.flatMap(([, l]) => l),
    ...QUESTION_STARTS,
    ...FIELD_WORDS.map(([w]) => w),
    ...CHANGE_HEADS,
    ...CONNECTORS,
    ...NAME_VERBS,
    ...NO_IDEA,
    ...INSTRUCTION_STARTS,
    ...GREETING_CUES,
    'first second third fourth fifth sixth last primero segundo tercero cuarto quinto sexto ultimo ultima',
    ...Object.values(FIELD_CHOICES).flatMap((cs) => cs.flatMap((c) => [c.label.es, c.label.en, ...(c.synonyms ?? [])])),
  ].filter((w) => !w.startsWith('#')),
);
const key = (phrase: string) => vocabulary.words(phrase).read.join(' ');
for (const [category, phrases] of CATEGORIES) {
  for (const phrase of phrases) {
    const k = key(phrase);
    if (!phraseCategories.has(k)) phraseCategories.set(k, new Set());
    phraseCategories.get(k)!.add(category);
  }
}
const phraseSet = (phrases: string[]) => new Set(phrases.map(key));
const QUESTION = phraseSet(QUESTION_STARTS);
const HEADS = phraseSet(CHANGE_HEADS);
const JOINS = phraseSet(CONNECTORS);
const NAMING = phraseSet(NAME_VERBS);
const INSTRUCTIONS = phraseSet(INSTRUCTION_STARTS);
const GREETINGS = phraseSet(GREETING_CUES);
const IDEAS = phraseSet(NO_IDEA);
const FIELDS = new Map(FIELD_WORDS.map(([w, f]) => [key(w), f]));
const NAMED_AS = phraseSet(NAME_IS);
const POINTING = phraseSet(POINTERS);
const FILLING = phraseSet(FILLERS);
/** Question words that ask rather than request ("how…", not "can you…"). */
const ASKING = new Set(
  'what whats how why which where when who que como cual cuales donde cuando quien cuanto'.split(' '),
);

/** The longest phrase of `set` the words start with at `i` (its length in words, 0 when none). */
function phraseAt(words: string[], i: number, set: ReadonlySet<string> | ReadonlyMap<string, unknown>): number {
  for (let n = Math.min(6, words.length - i); n > 0; n -= 1) if (set.has(words.slice(i, i + n).join(' '))) return n;
  return 0;
}

/** The categories of a reply made only of listed phrases (fewest phrases), or undefined when it is not. */
function cover(words: string[]): Array<Set<Category>> | undefined {
  const best: Array<Array<Set<Category>> | undefined> = [[]];
  for (let i = 0; i < words.length; i += 1) {
    const here = best[i];
    if (!here) continue;
    for (let n = 1; n <= Math.min(7, words.length - i); n += 1) {
      const cats = phraseCategories.get(words.slice(i, i + n).join(' '));
      if (!cats) continue;
      const next = [...here, cats];
      const old = best[i + n];
      if (!old || next.length < old.length) best[i + n] = next;
    }
  }
  return best[words.length];
}

/**
 * The kind a reply made of listed phrases says, or undefined when it says none (only courtesies): a skip wins ("ok,
 * skip"), then keeping ("no, déjalo así"); a no before a yes refuses a change ("no, it's fine"), a yes before a no
 * says nothing sure; else no, then yes.
 */
function kindOf(segments: Array<Set<Category>>): Reading['kind'] | undefined {
  const said = segments.map((s) => [...s].filter((c) => c !== 'filler')).filter((k) => k.length > 0);
  if (said.length === 0) return undefined;
  const has = (c: Said) => said.some((k) => k.includes(c));
  const only = (c: Said) => said.some((k) => k.length === 1 && k[0] === c);
  if (only('skip')) return 'skip';
  if (has('keep')) return 'keep';
  if (only('disagree') && has('agree')) return said[0].includes('disagree') ? 'keep' : 'other';
  if (has('disagree')) return 'disagree';
  if (has('agree')) return 'agree';
  return 'skip';
}

/** The words as typed from read word `i` on, without quotes around them (and, for a name, a closing full stop). */
function typedFrom(w: Words, i: number, field?: Field | 'text'): string {
  if (i >= w.read.length) return '';
  return clean(w.typed.slice(w.from[i]).join(' '), field);
}

/** A value without quotes around it; a name without a closing full stop or comma either. */
function clean(text: string, field?: Field | 'text'): string {
  const unquoted = text.trim().replace(/^[«“"'‘]+(.*?)[»”"'’]+([.!]?)$/u, '$1$2');
  return (field === 'name' ? unquoted.replace(/[.,;:]+$/, '') : unquoted.replace(/[,;:]+$/, '')).trim();
}

const CHOICE_NOISE = new Set(
  'the el la los las un una a an al del de of one uno please por favor pls instead mejor better in en con with colour color colours colors palette paleta icon icono tone tono language idioma something algo'.split(
    ' ',
  ),
);

/**
 * A choice named by a few words ("verde", "el del robot"), or by its place ("the second one", "el segundo color")
 * unless `byName` (a place alone, "wait a second", names no colour).
 */
function choiceIn(words: string[], choices: Choice[], byName = false): Choice | undefined {
  const rest = words.filter((w) => !CHOICE_NOISE.has(w));
  if (rest.length === 0 || rest.length > 2 || (byName && rest.some(isOrdinal))) return undefined;
  return matchChoice(rest.join(' '), choices);
}

/** Words that turn a bare choice into a request when they close it ("pink please instead", "verde mejor"). */
const TRAILING = new Set(['instead', 'rather', 'mejor', 'better']);
const DETERMINERS = new Set([
  'the',
  'el',
  'la',
  'los',
  'las',
  'its',
  'su',
  'sus',
  'my',
  'mi',
  'tu',
  'your',
  'this',
  'este',
  'esta',
  'that',
]);

/** "change the name to Espiga", "call it Espiga", "mejor verde", "el segundo color", "no, the tone should be fun". */
function change(w: Words, ask: Ask): Reading | undefined {
  const words = w.read;
  let i = 0;
  let headed = TRAILING.has(words.at(-1) ?? '');
  for (;;) {
    // "call it Espiga", "que se llame Espiga", "no, se llama Espiga".
    const naming = phraseAt(words, i, NAMING);
    if (naming) {
      const value = typedFrom(w, i + naming, 'name');
      return value ? { kind: 'change', field: 'name', value, confidence: 0.9 } : undefined;
    }
    // At a yes/no question, "no, it's Espiga": a short name, capitalised as names are.
    const is = ask.kind === 'confirm' && headed ? phraseAt(words, i, NAMED_AS) : 0;
    const named = is ? typedFrom(w, i + is, 'name') : '';
    if (named && /^\p{Lu}/u.test(named) && named.split(/\s+/).length <= 4)
      return { kind: 'change', field: 'name', value: named, confidence: 0.75 };
    const head = phraseAt(words, i, HEADS);
    if (!head) break;
    i += head;
    headed = true;
  }
  // "(the) FIELD (of the spark) to|: VALUE".
  let j = i;
  if (DETERMINERS.has(words[j] ?? '')) j += 1;
  const fieldLength = phraseAt(words, j, FIELDS);
  if (fieldLength) {
    const field = FIELDS.get(words.slice(j, j + fieldLength).join(' '))!;
    let k = j + fieldLength;
    if (['of', 'del', 'de'].includes(words[k] ?? '') && ['the', 'el', 'it', 'spark'].includes(words[k + 1] ?? ''))
      k += ['the', 'el'].includes(words[k + 1]) && words[k + 2] === 'spark' ? 3 : 2;
    const join = phraseAt(words, k, JOINS);
    const choices = FIELD_CHOICES[field];
    if (choices) {
      const choice = choiceIn(words.slice(k + join), choices);
      if (choice && (headed || join)) return { kind: 'change', field, value: choice.value, confidence: 0.9 };
    } else if (join && k + join < words.length) {
      const value = typedFrom(w, k + join, field);
      if (value) return { kind: 'change', field, value, confidence: 0.9 };
    }
  }
  // A choice of a list after a head ("mejor verde", "make it green", "prefiero el robot", "el segundo color").
  for (const field of ['palette', 'icon', 'tone', 'language'] as const) {
    const named = words.slice(i).some((x) => FIELDS.get(x) === field);
    // At the greeting, "make it friendlier" is about the greeting's words, unless the tone is named.
    if (!named && (!headed || (field === 'tone' && ask.kind === 'value' && ask.field === 'greeting'))) continue;
    const choice = choiceIn(words.slice(i), FIELD_CHOICES[field]!, !named);
    // A colour read from a typo ("no clue" is not "no blue") is not sure enough to change anything by itself.
    if (choice)
      return { kind: 'change', field, value: choice.value, confidence: named ? 0.9 : w.corrected ? 0.5 : 0.75 };
  }
  return undefined;
}

/** Reads a reply to a step without a language model. */
export function classifyReply(text: string, ask: Ask): Reading {
  const raw = text.trim();
  if (!raw) return { kind: 'other', confidence: 1 };
  const w = vocabulary.words(raw);
  const words = w.read;
  const sure = w.corrected ? 0.8 : 0.95;
  const joined = words.join(' ');
  // A choice the step offers, by its name, a synonym or its place, wins over any reading of the words.
  const offered = ask.kind === 'choice' ? matchChoice(raw, ask.choices) : undefined;
  if (offered) return { kind: 'value', value: offered.value, confidence: sure };

  // Replies made only of listed phrases: agreement, refusal, keep, skip ("is it safe?" is not "is it same").
  const listed = listedKind(words);
  if (listed && !(w.asks && w.corrected)) return fit({ kind: listed, confidence: sure }, ask);
  // The same without the words that only point at the value ("no, the greeting is fine", "el nombre está bien").
  const pointed = without(words, POINTING, FIELDS);
  const second = pointed.length > 0 && pointed.length < words.length ? listedKind(pointed) : undefined;
  if (second && !w.asks) return fit({ kind: second, confidence: 0.8 }, ask);

  const asking = ASKING.has(words[0] ?? '') || (words[0] === 'que' && words.length > 2);
  const greeting = phraseIn(words, GREETINGS);
  if (!(asking && w.asks)) {
    const changed = change(w, ask);
    if (changed) return fit(changed, ask);
  }
  if (ask.kind === 'choice') {
    const choice = matchChoice(raw, ask.choices) ?? choiceIn(words, ask.choices);
    if (choice) return { kind: 'value', value: choice.value, confidence: sure };
  }
  const greetingStep = ask.kind === 'value' && ask.field === 'greeting';
  // A greeting may ask ("How can I help?"); a question about the greeting names it ("can I change the message?").
  const aboutIt = words.some((x, at) => FIELDS.has(x) || fieldAround(words, at));
  const question =
    (w.asks && !(greetingStep && greeting && !aboutIt)) ||
    QUESTION.has(joined) ||
    (asking && words.length <= 8 && !(greetingStep || (ask.kind === 'value' && ask.field === 'description')));
  if (question) return { kind: 'question', confidence: w.asks ? 0.9 : 0.7 };
  if (IDEAS.has(joined) || IDEAS.has(withoutFillers(words))) return { kind: 'other', confidence: 0.8 };
  // "later, I'm busy", "no, I meant yes": a first clause that says something, and a few words more.
  // At a yes/no question a first "no," is a no whatever follows ("no, that's not what I said").
  const clause = raw.split(/[,.;!]/)[0];
  const first = clause !== raw ? listedKind(vocabulary.words(clause).read) : undefined;
  const more = raw
    .slice(clause.length)
    .split(/\s+/)
    .filter((x) => /[\p{L}\p{N}]/u.test(x)).length;
  if (first && (more <= 4 || (ask.kind === 'confirm' && first === 'disagree')))
    return fit({ kind: first, confidence: 0.7 }, ask);
  if (ask.kind === 'value') return value(raw, words, ask, greeting);
  return { kind: 'other', confidence: 0.4 };
}

/** The kind of a reply made only of listed phrases, if it is one. */
function listedKind(words: string[]): Reading['kind'] | undefined {
  const segments = words.length ? cover(words) : undefined;
  return segments && kindOf(segments);
}

/** The word at `at` belongs to a field's name of several words ("welcome message", "mensaje de bienvenida"). */
function fieldAround(words: string[], at: number): boolean {
  for (let from = Math.max(0, at - 3); from <= at; from += 1) {
    const n = phraseAt(words, from, FIELDS);
    if (n && from + n > at) return true;
  }
  return false;
}

/** The words without the phrases of `sets` (the longest first). */
function without(words: string[], ...sets: Array<ReadonlySet<string> | ReadonlyMap<string, unknown>>): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length;) {
    const n = Math.max(...sets.map((set) => phraseAt(words, i, set)));
    if (n === 0) out.push(words[i]);
    i += Math.max(n, 1);
  }
  return out;
}

/** The words without courtesies at either end ("ni idea la verdad" is "ni idea"). */
function withoutFillers(words: string[]): string {
  let [from, to] = [0, words.length];
  while (from < to && FILLING.has(words[from])) from += 1;
  while (to > from && FILLING.has(words[to - 1])) to -= 1;
  for (let n = 3; n > 1; n -= 1) if (to - n >= from && FILLING.has(words.slice(to - n, to).join(' '))) to -= n;
  return words.slice(from, to).join(' ');
}

function phraseIn(words: string[], set: ReadonlySet<string>): boolean {
  for (let i = 0; i < words.length; i += 1) if (phraseAt(words, i, set)) return true;
  return false;
}

/** Courtesies alone ("hello", "buenas"): no answer to a step that asks for a description or a name. */
const GREETED = new Set(['hello', 'hi', 'hey', 'hola', 'buenas', 'buenos dias', 'buenas tardes', 'good morning']);

/** A typed value, and whether it looks like what the step asks. */
function value(raw: string, words: string[], ask: Ask & { kind: 'value' }, greeting: boolean): Reading {
  const text = clean(raw, ask.field);
  const instruction = phraseAt(words, 0, INSTRUCTIONS) > 0;
  if (ask.field === 'greeting') {
    return instruction
      ? { kind: 'value', value: text, unusual: true, confidence: 0.6 }
      : { kind: 'value', value: text, confidence: greeting ? 0.95 : 0.8 };
  }
  if (GREETED.has(words.join(' '))) return { kind: 'other', confidence: 0.7 };
  if (ask.field === 'name') {
    const count = text.split(/\s+/).length;
    const sentence = count > 6 || (count > 3 && /[.!]$/.test(text)) || instruction;
    return sentence
      ? { kind: 'value', value: text, unusual: true, confidence: 0.6 }
      : { kind: 'value', value: text, confidence: 0.9 };
  }
  return { kind: 'value', value: text, confidence: 0.85 };
}

/**
 * The reading as the step takes it: at a step that offers to keep a value, agreeing, refusing and skipping keep it;
 * at a yes/no question, keeping agrees; a change of the very value the step asks for is its answer.
 */
function fit(reading: Reading, ask: Ask): Reading {
  const { kind } = reading;
  if (ask.kind === 'value' && ask.keep && (kind === 'agree' || kind === 'disagree' || kind === 'skip'))
    return { ...reading, kind: 'keep' };
  if (ask.kind === 'confirm' && kind === 'keep') return { ...reading, kind: 'agree' };
  if (kind === 'change' && ask.kind === 'choice' && reading.field === ask.field)
    return { kind: 'value', value: reading.value, confidence: reading.confidence };
  if (kind === 'change' && ask.kind === 'value' && reading.field === ask.field) {
    const typed = reading.value ?? '';
    return value(typed, vocabulary.words(typed).read, ask, phraseIn(vocabulary.words(typed).read, GREETINGS));
  }
  return reading;
}
