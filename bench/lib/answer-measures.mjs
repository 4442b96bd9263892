// The measures of the answer-quality benchmarks (issue 17), shared by bench/answer-quality.mjs (through
// the api and worker) and bench/answer-quality-direct.mjs (straight through retrieval and the composer).

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

/** The first sentence of a reply: up to the first . ! ? followed by a space or the end, or the first line. */
export function firstSentence(text) {
  const line = text.split(/\n+/).find((l) => l.trim()) ?? '';
  const m = /^(.+?[.!?])(\s|$)/.exec(plain(line));
  return m ? m[1] : plain(line);
}

const norm = (s) => s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim();

/** Whether a text holds one of the gold answers (case, accents and spacing aside). */
export const holds = (text, answers) => answers.some((a) => norm(text).includes(norm(a)));

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
}
