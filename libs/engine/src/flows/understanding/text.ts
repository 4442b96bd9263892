/**
 * A reply as the understanding layer reads it: emoji said in words, accents, case and punctuation aside, a letter
 * typed three times or more read twice ("siiii", "goood"), chat shorthands read out ("q" for "que"), and words one or
 * two typos away from a word of the phrase lists corrected ("perfcto", "dejalo igul"). The raw words are kept beside the read ones, so that a value is
 * taken as the owner typed it.
 */

import { normalize } from '../understand';

/** Emoji that answer: a thumbs-up is a yes, a cross a no, a thinking face a question; the others are decoration. */
const EMOJI: Array<[RegExp, string]> = [
  [/[👍👌✅✔☑💯🙌👏🆗🤙💪🤝]/gu, ' yes '],
  [/[😀😃😄😁😊🙂☺😍🥰🤩😎❤💜💙💚🧡💛🖤🤍💖💗✨🎉🥳🔥⭐🌟]/gu, ' good '],
  [/[👎❌🚫🙅⛔😞😕🙁☹😒]/gu, ' no '],
  [/[🤔❓❔🤷]/gu, ' ? '],
  [/[🙏]/gu, ' please '],
];

/** The words of a reply, read (normalized, emoji in words, corrected) and as typed. */
export interface Words {
  /** The words as read, one per position. */
  read: string[];
  /** For each read word, the index of the typed word it comes from (`typed`). */
  from: number[];
  /** The reply split on spaces, as typed. */
  typed: string[];
  /** Some word was corrected for a typo. */
  corrected: boolean;
  /** The reply asks: a question mark (or an emoji that asks). */
  asks: boolean;
}

/** Damerau–Levenshtein distance, bounded: `max + 1` as soon as it must be larger. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) d[0][j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    let best = max + 1;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      best = Math.min(best, d[i][j]);
    }
    if (best > max) return max + 1;
  }
  return d[a.length][b.length];
}

/** Chat shorthands, read as the word they stand for ("q" for "que", "tb" for "también"). */
const SHORTHANDS: Record<string, string> = {
  q: 'que',
  xq: 'porque',
  pq: 'porque',
  tb: 'tambien',
  tmb: 'tambien',
  x: 'por',
  u: 'you',
  ur: 'your',
  r: 'are',
  thx: 'thanks',
  pls: 'please',
  plz: 'please',
};

/** `b` is `a` with two neighbouring letters swapped. */
const swapped = (a: string, b: string) =>
  a.length === b.length && [...a].sort().join('') === [...b].sort().join('') && distance(a, b, 1) === 1;

/**
 * The closest word of the vocabulary to a word that is not in it, when one is close enough: one typo for words of
 * three to seven letters (three only when a letter was left out or two swapped), two from eight. Among equally close
 * words, a swap of letters wins, then a left-out letter, then one with the same first and last letters; else none.
 */
function correct(word: string, vocabulary: ReadonlySet<string>, byLength: ReadonlyMap<number, string[]>): string {
  if (word.length < 3 || vocabulary.has(word) || /\d/.test(word)) return word;
  const max = word.length >= 8 ? 2 : 1;
  let best = max + 1;
  let found: string[] = [];
  for (let n = word.length - max; n <= word.length + max; n += 1) {
    for (const candidate of byLength.get(n) ?? []) {
      if (candidate.length < 3) continue;
      const d = distance(word, candidate, max);
      if (d < best) {
        best = d;
        found = [candidate];
      } else if (d === best) found.push(candidate);
    }
  }
  if (best > max) return word;
  if (word.length === 3) found = found.filter((c) => c.length === 4 || swapped(word, c));
  if (found.length === 1) return found[0];
  for (const prefer of [
    (c: string) => swapped(word, c),
    (c: string) => c.length === word.length + 1,
    (c: string) => c[0] === word[0] && c.at(-1) === word.at(-1),
  ]) {
    const chosen = found.filter(prefer);
    if (chosen.length === 1) return chosen[0];
  }
  return word;
}

/** A vocabulary of words, from phrase lists; `words` reads a reply against it. */
export class Vocabulary {
  private readonly set = new Set<string>();
  /** Words already corrected (a few thousand at most: then it starts afresh). */
  private readonly seen = new Map<string, string>();
  private readonly byLength = new Map<number, string[]>();

  constructor(phrases: Iterable<string>) {
    for (const p of phrases) for (const w of normalize(p).split(' ')) if (w) this.set.add(w);
    for (const w of [...this.set].sort()) this.byLength.set(w.length, [...(this.byLength.get(w.length) ?? []), w]);
  }

  private correct(word: string): string {
    let fixed = this.seen.get(word);
    if (fixed === undefined) {
      if (this.seen.size >= 5000) this.seen.clear();
      fixed = correct(word, this.set, this.byLength);
      this.seen.set(word, fixed);
    }
    return fixed;
  }

  words(text: string): Words {
    const typed = text.trim().split(/\s+/).filter(Boolean);
    const read: string[] = [];
    const from: number[] = [];
    let asks = /[?¿]/.test(text);
    let corrected = false;
    typed.forEach((word, at) => {
      let spoken = word;
      for (const [re, said] of EMOJI) spoken = spoken.replace(re, said);
      if (/(^|\s)\?(\s|$)/.test(spoken)) asks = true;
      for (const w of normalize(spoken.replace(/(\p{L})\1{2,}/gu, '$1$1')).split(' ')) {
        if (!w) continue;
        const fixed = SHORTHANDS[w] ?? this.correct(w);
        if (fixed !== w) corrected = true;
        read.push(fixed);
        from.push(at);
      }
    });
    return { read, from, typed, corrected, asks };
  }
}
