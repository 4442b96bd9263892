// The data and measures of the small-business answer benchmark (issue 29), shared by bench/business-qa.mjs
// (through the api and worker, or in-process with --direct) and the regression test
// (test/integration/business-answers.it.ts).
//
// The data set (shared/data/smb-qa-dev, README there): businesses, each one document in one language
// (pages of lines) and 30 questions as customers type them, with gold answers (null: the document does
// not answer it).
import fs from 'node:fs';
import path from 'node:path';
import { firstSentence, median, plain } from './answer-measures.mjs';
import { ROOT, rootRequire } from './common.mjs';

export { plain };

/** The data folder: --data, else SPARKS_SMB_DATA, else shared/data/smb-qa-dev beside the repository or its parent. */
export function smbDataDir(explicit) {
  if (explicit) return path.resolve(explicit);
  if (process.env.SPARKS_SMB_DATA) return path.resolve(process.env.SPARKS_SMB_DATA);
  const found = [path.join(ROOT, '..', 'shared'), path.join(ROOT, '..', '..', 'shared')]
    .map((d) => path.join(d, 'data', 'smb-qa-dev'))
    .find((d) => fs.existsSync(d));
  return found ?? path.join(ROOT, '..', 'shared', 'data', 'smb-qa-dev');
}

/** Every business of the folder's businesses.json (or the file given). */
export function loadBusinesses(dirOrFile) {
  const file = dirOrFile.endsWith('.json') ? dirOrFile : path.join(dirOrFile, 'businesses.json');
  if (!fs.existsSync(file)) throw new Error(`${file} not found: pass --data <folder> or set SPARKS_SMB_DATA`);
  return JSON.parse(fs.readFileSync(file, 'utf8')).businesses;
}

/**
 * The document as a PDF a word processor would make of it: A4, 11 pt Helvetica, each line of the data a
 * line of the page, a line too long for the page wrapped at a space (about 85 characters), an empty line
 * kept as such, one page of the data a page of the PDF.
 */
export async function businessPdf(pages) {
  const PDFDocument = rootRequire('pdfkit');
  const doc = new PDFDocument({ autoFirstPage: false, compress: true, size: 'A4', margin: 60 });
  const parts = [];
  doc.on('data', (c) => parts.push(c));
  const done = new Promise((resolve) => doc.on('end', () => resolve(Buffer.concat(parts))));
  for (const text of pages) {
    doc.addPage();
    doc.font('Helvetica').fontSize(11).text(text, { lineGap: 2 });
  }
  doc.end();
  return done;
}

/**
 * Text compared as the data's README says: lower case, no accents, no markdown, spaces collapsed, and
 * 20:30, 20.30 and 20,30 alike.
 */
export function comparable(text) {
  return plain(text)
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/(\d)[.,:](\d)/g, '$1:$2')
    .replace(/[“”«»"]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const holdsGold = (text, gold) => gold.some((g) => comparable(text).includes(comparable(g)));

/** The reply's own text, without the sources line(s) that end it ("— *menu.pdf, page 1*"). */
function replyBody(content) {
  const cut = content.search(/\n\s*—\s/);
  return cut < 0 ? content : content.slice(0, cut);
}

/** What the reply quotes of the documents: its text after a lead in its own words ("On Mondays we close at 20:30 — …"). */
function quoted(content) {
  const body = replyBody(content);
  const dash = body.indexOf(' — ');
  return dash < 0 ? body : body.slice(dash + 3);
}

/** The words of a text as compared; a number keeps its separators ("7:00", "4,50") as one word. */
const wordsOf = (text) => comparable(text).match(/[\p{L}\p{N}£$€%]+(?:[.,:/-][\p{L}\p{N}]+)*/gu) ?? [];

/** Length of the longest run of `needle`'s words found one after the other in `hay`. */
function longestRun(hay, needle) {
  let best = 0;
  for (let i = 0; i < hay.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      let k = 0;
      while (i + k < hay.length && j + k < needle.length && hay[i + k] === needle[j + k]) k++;
      if (k > best) best = k;
    }
  }
  return best;
}

/**
 * The document's sentences, as a reader cuts them: each line of the data (no PDF wrapping) cut by the
 * product's own sentence rule. FAQ lines ("Do you…? Yes, …") give their question and answer apart.
 */
export function documentSentences(business) {
  const { splitSentences } = rootRequire('./libs/core/dist/index.js');
  return business.pages
    .flatMap((p) => p.split('\n'))
    .map((l) => l.replace(/^\s*[-•*]\s+/, '').trim())
    .filter(Boolean)
    .flatMap((l) => splitSentences(l))
    .map((s) => ({ text: s, words: wordsOf(s) }))
    .filter((s) => s.words.length > 0);
}

/** Where the words of `needle` stand one after the other in `hay`, or -1. */
function indexOfRun(hay, needle) {
  for (let i = 0; i + needle.length <= hay.length; i++) if (needle.every((w, k) => hay[i + k] === w)) return i;
  return -1;
}

/**
 * Whether the reply quotes part of one of the document's sentences or rows without the rest (at least
 * four words of it and 40 % of it one after the other, but not all of it): an answer cut mid-sentence.
 * What the reply quotes whole is left out first, so that two sentences sharing words are not mistaken
 * for a cut one; a lead in the reply's own words before the quote is not a quote.
 */
function cutMidSentence(content, sentences) {
  const body = wordsOf(quoted(content));
  for (const s of [...sentences].sort((a, b) => b.words.length - a.words.length)) {
    const at = indexOfRun(body, s.words);
    if (at >= 0 && s.words.length >= 3) body.splice(at, s.words.length, '§');
  }
  return sentences.some((s) => {
    if (s.words.length < 5) return false;
    const run = longestRun(body, s.words);
    return run >= 4 && run >= s.words.length * 0.4 && run < s.words.length;
  });
}

const VALUE = /^([£$€]\s?\d|\d)/;

/**
 * Whether the reply opens with a value (a price, a time, a number) that the document writes on another
 * line than the words that follow it ("650 MXN Limpieza dental…"): its first word is a value that the
 * document's sentence sharing most words with the reply's opening does not hold.
 */
function leadsWithOtherValue(content, sentences) {
  const body = wordsOf(replyBody(content));
  if (body.length < 4 || !VALUE.test(body[0])) return false;
  const opening = body.slice(0, 12);
  let best;
  let bestRun = 2;
  for (const s of sentences) {
    const run = longestRun(opening, s.words);
    if (run > bestRun) [best, bestRun] = [s, run];
  }
  return best !== undefined && !best.words.includes(body[0]);
}

/** One reply scored against its question. */
export function scoreReply(question, reply, sentences) {
  const covered = question.gold !== null;
  return {
    kind: question.kind,
    variant: question.variant,
    covered,
    refused: reply.kind === 'notCovered',
    first: covered && holdsGold(firstSentence(reply.content), question.gold),
    anywhere: covered && holdsGold(reply.content, question.gold),
    cut: reply.kind === 'answer' && cutMidSentence(reply.content, sentences),
    otherValue: reply.kind === 'answer' && leadsWithOtherValue(reply.content, sentences),
    chars: reply.content.length,
  };
}

const share = (list, pred) => (list.length ? list.filter(pred).length / list.length : NaN);

/** The figures of a set of scored rows (one language, or one kind or variant of it). */
export function figures(rows) {
  const on = rows.filter((r) => r.covered);
  const off = rows.filter((r) => !r.covered);
  const answers = rows.filter((r) => r.reply.kind === 'answer');
  return {
    questions: rows.length,
    answerable: on.length,
    first: share(on, (r) => r.first),
    anywhere: share(on, (r) => r.anywhere),
    cut: share(answers, (r) => r.cut),
    otherValue: share(answers, (r) => r.otherValue),
    notCovered: off.length,
    refused: share(off, (r) => r.refused),
    answeredAnyway: share(off, (r) => !r.refused),
    medianChars: median(answers.map((r) => r.chars)),
    msPerQuestion: median(rows.map((r) => r.ms)),
  };
}

export const pct = (v) => (Number.isFinite(v) ? `${(v * 100).toFixed(1)} %` : '–');
