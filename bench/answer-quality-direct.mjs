#!/usr/bin/env node
// The offline engine's answer quality without the api and the worker, for iterating on retrieval and
// ranking (issue 17): the same XQuAD articles and measures as bench/answer-quality.mjs, but each article's
// paragraphs (one a page) are read by the ingestion's own text path (`readDocument`: language, passages of
// whole sentences) and written to a scratch database, and each question goes to the `AnswerEngine` of
// libs/engine — what the worker does for a test chat, minus HTTP, queues and PDF reading. About 20 s for both languages instead of minutes; the figures can differ slightly from the full
// benchmark's (pdftotext's text), which stays the one of record (bench/RESULTS.md).
//
//   node bench/answer-quality-direct.mjs [--lang en,es] [--data <folder>] [--off-topic 3] [--json out.json]
//   --set MIN_COVERAGE=0.3   other values of ANSWERING (libs/engine/src/answers/answer.ts) or RANKING
//                            (libs/engine/src/ranking.ts), in this process only
//   --misses     also prints every on-topic question whose first source or first sentence is wrong
//   --recall     also reports recall@5: the gold answer among the passages a language model would be sent
// Needs the built libraries (npx tsc -b libs/engine libs/knowledge).
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { firstSentence, heldOut, holds, median, plain } from './lib/answer-measures.mjs';
import { PG_ADMIN_URL, ROOT, log, onCleanup, rootRequire, runBench, table, writeJsonIfAsked } from './lib/common.mjs';

const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const LANGS = opt('lang', 'en,es').split(',');
const OFF_TOPIC = Number(opt('off-topic', 3));
const MISSES = argv.includes('--misses');
const RECALL = argv.includes('--recall');
const DATA_DIR = path.resolve(
  opt(
    'data',
    process.env.SPARKS_QA_DATA ??
      [path.join(ROOT, '..', 'shared'), path.join(ROOT, '..', '..', 'shared')]
        .map((d) => path.join(d, 'data', 'xquad-dev'))
        .find((d) => fs.existsSync(d)) ??
      path.join(ROOT, '..', 'shared', 'data', 'xquad-dev'),
  ),
);

const { Client, Pool } = rootRequire('pg');
const { createDb, runMigrations, SearchRepository } = rootRequire('./libs/db/dist/index.js');
const { AnswerEngine } = rootRequire('./libs/engine/dist/index.js');
const { RANKING } = rootRequire('./libs/engine/dist/ranking.js');
const { ANSWERING } = rootRequire('./libs/engine/dist/answers/answer.js');
// --set NAME=value,…: tries other values of the ranking's tuning (RANKING in libs/engine/src/ranking.ts)
// in this process only, to compare them before changing the code.
for (const pair of opt('set', '').split(',').filter(Boolean)) {
  const [k, v] = pair.split('=');
  const table = k in ANSWERING ? ANSWERING : RANKING;
  if (!(k in table)) throw new Error(`RANKING and ANSWERING have no ${k}`);
  table[k] = Number(v);
}
const { readDocument } = rootRequire('./libs/knowledge/dist/index.js');
const { uuidv7 } = rootRequire('uuidv7');

function loadArticles(lang) {
  const { data } = JSON.parse(fs.readFileSync(path.join(DATA_DIR, `xquad-dev.${lang}.json`), 'utf8'));
  return data.map((article, a) => ({
    n: a,
    title: article.title ?? `Article ${a + 1}`,
    paragraphs: article.paragraphs.map((p) => p.context),
    questions: article.paragraphs.flatMap((p, page) =>
      p.qas.map((q) => ({ question: q.question, answers: q.answers.map((x) => x.text), page: page + 1 })),
    ),
  }));
}

async function scratch() {
  const name = `q_quality_direct_${process.pid}`;
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  onCleanup(`drop database ${name}`, async () => {
    const c = new Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  await runMigrations(url.toString());
  return url.toString();
}

async function addSpark(pool, userId, article, lang) {
  const sparkId = randomUUID();
  await pool.query(`INSERT INTO sparks (id, user_id, name, options) VALUES ($1, $2, $3, '{}'::jsonb)`, [
    sparkId,
    userId,
    article.title.slice(0, 100),
  ]);
  const read = readDocument(article.paragraphs, lang);
  const docId = randomUUID();
  await pool.query(
    `INSERT INTO documents (id, spark_id, user_id, name, storage_key, size, sha256, status, pages, chars, language)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'completed', $8, $9, $10)`,
    [
      docId,
      sparkId,
      userId,
      `${article.title.slice(0, 60)}.pdf`,
      `bench/${docId}`,
      read.chars,
      randomBytes(32).toString('hex'),
      read.pages,
      read.chars,
      read.language,
    ],
  );
  for (const [ord, c] of read.chunks.entries()) {
    await pool.query(
      `INSERT INTO document_chunks (id, document_id, spark_id, ord, page, content, config, tsv)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text, to_tsvector($7::text::regconfig, $6))`,
      [uuidv7(), docId, sparkId, ord, c.page, c.content, read.config],
    );
  }
  return sparkId;
}

let engine;
async function answer(db, sparkId, lang, question) {
  engine ??= new AnswerEngine(new SearchRepository(db));
  const out = await engine.answer({
    sparkId,
    language: lang,
    initialMessage: 'Hello',
    sysPrompt: '',
    question,
    history: [],
    onToken: () => undefined,
  });
  const passages = RECALL ? await engine.modelPassages(sparkId, lang, question) : [];
  return { content: out.text, kind: out.kind, sources: out.sources, passages };
}

function summarize(lang, set, all) {
  const rows = all.filter((r) => r.lang === lang && (set === 'all' || (set === 'held-out') === heldOut(r.article)));
  const on = rows.filter((r) => !r.offTopic);
  const off = rows.filter((r) => r.offTopic);
  const share = (list, key) => (list.length ? list.filter((r) => r[key]).length / list.length : NaN);
  return {
    lang,
    set,
    questions: on.length,
    p1: share(on, 'p1'),
    firstSentence: share(on, 'first'),
    anywhere: share(on, 'anywhere'),
    medianChars: median(on.map((r) => r.chars)),
    notCoveredOnTopic: on.filter((r) => r.kind === 'notCovered').length,
    offTopic: off.length,
    offTopicDeclined: off.filter((r) => r.kind === 'notCovered').length,
    recall5: share(on, 'recall5'),
    recall5Sent: share(
      on.filter((r) => r.kind === 'answer'),
      'recall5',
    ),
  };
}

runBench(async () => {
  const url = await scratch();
  const pool = new Pool({ connectionString: url, max: 2 });
  onCleanup('close pool', () => pool.end());
  const { db, close } = createDb(url);
  onCleanup('close db', () => close?.());
  const userId = (
    await pool.query(
      `INSERT INTO users (id, username, email) VALUES ($1, 'q@example.com', 'q@example.com') RETURNING id`,
      [randomUUID()],
    )
  ).rows[0].id;
  const rows = [];
  for (const lang of LANGS) {
    const articles = loadArticles(lang);
    const t0 = Date.now();
    for (const article of articles) {
      const sparkId = await addSpark(pool, userId, article, lang);
      for (const q of article.questions) {
        const r = await answer(db, sparkId, lang, q.question);
        rows.push({
          lang,
          article: article.n,
          question: q.question,
          answers: q.answers,
          page: q.page,
          kind: r.kind,
          content: r.content,
          p1: r.sources[0]?.page === q.page,
          first: holds(firstSentence(r.content), q.answers),
          anywhere: holds(plain(r.content), q.answers),
          chars: r.content.length,
          ...(RECALL ? { recall5: r.passages.some((p) => holds(p.content, q.answers)) } : {}),
          ranked: r.passages.slice(0, 3).map((p) => ({ page: p.page, score: p.score, coverage: p.coverage })),
        });
      }
      const other = articles[(article.n + 1) % articles.length];
      for (const q of other.questions.slice(0, OFF_TOPIC)) {
        const r = await answer(db, sparkId, lang, q.question);
        rows.push({
          lang,
          article: article.n,
          question: q.question,
          offTopic: true,
          kind: r.kind,
          content: r.content,
          ranked: r.passages.slice(0, 3).map((p) => ({ page: p.page, score: p.score, coverage: p.coverage })),
        });
      }
    }
    log(`${lang}: ${articles.length} articles in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  if (MISSES) {
    for (const r of rows.filter((x) => !x.offTopic && (!x.p1 || !x.first))) {
      console.log(
        `${r.lang} a${r.article} p${r.page} ${r.p1 ? 'P1' : '--'} ${r.first ? 'F' : '-'} ${r.kind} | ${r.question} | ${r.answers[0]} | ${plain(r.content).slice(0, 160)} | ${JSON.stringify(r.ranked)}`,
      );
    }
    for (const r of rows.filter((x) => x.offTopic && x.kind !== 'notCovered'))
      console.log(`${r.lang} a${r.article} OFF answered | ${r.question} | ${plain(r.content).slice(0, 120)}`);
  }
  const pct = (v) => (Number.isFinite(v) ? `${(v * 100).toFixed(1)} %` : '–');
  const summaries = LANGS.flatMap((lang) => ['dev', 'held-out', 'all'].map((set) => summarize(lang, set, rows)));
  console.log(
    table(
      [
        ['lang', (r) => r.lang],
        ['articles', (r) => r.set],
        ['questions', (r) => r.questions],
        ['P@1', (r) => pct(r.p1)],
        ['first sentence', (r) => pct(r.firstSentence)],
        ['anywhere', (r) => pct(r.anywhere)],
        ['median chars', (r) => r.medianChars],
        ['on-topic declined', (r) => r.notCoveredOnTopic],
        ...(RECALL
          ? [
              ['recall@5', (r) => pct(r.recall5)],
              ['recall@5 of those sent', (r) => pct(r.recall5Sent)],
            ]
          : []),
        [
          'off-topic declined',
          (r) => `${r.offTopicDeclined} / ${r.offTopic} (${pct(r.offTopicDeclined / r.offTopic)})`,
        ],
      ],
      summaries,
    ),
  );
  writeJsonIfAsked({ summaries, rows });
});
