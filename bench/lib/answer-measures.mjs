// The measures of the answer-quality benchmarks (issue 17), shared by bench/answer-quality.mjs (through
// the api and worker) and bench/answer-quality-direct.mjs (straight through retrieval and the composer).

import { rootRequire } from './common.mjs';

const { splitSentences } = rootRequire('./libs/core/dist/index.js');

/** Held-out articles: every 4th one, never used for tuning. */
export const heldOut = (article) => article % 4 === 3;

/** The text a reader sees: Markdown escapes and emphasis removed, spaces collapsed. */
export function plain(markdown) {
  return markdown
    .replace(/\\([\\`*_[\]{}()#+\-.!<>|~&:@=])/g, '$1')
    .replace(/\*\*|__/g, '')
    .replace(/^>\s?/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The first sentence of a reply's first line, cut where a reader ends it: by the product's own rule
 * (`splitSentences` of @sparks/core, which does not end a sentence at "Brown v." or "Sr."). Before
 * 2026-11-28 this cut at the first . ! ? followed by a space (bench/RESULTS.md says which figures used which).
 */
export function firstSentence(text) {
  const line = plain(text.split(/\n+/).find((l) => l.trim()) ?? '');
  return splitSentences(line)[0] ?? line;
}

const norm = (s) => s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim();

/** Whether a text holds one of the gold answers (case, accents and spacing aside). */
export const holds = (text, answers) => answers.some((a) => norm(text).includes(norm(a)));

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
}
