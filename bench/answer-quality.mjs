#!/usr/bin/env node
// What a Spark answers, measured (issue 17): XQuAD's development half (24 Wikipedia articles, 612
// questions, the same in English and Spanish; CC BY-SA 4.0) read by Sparks through the real api and
// worker. Each article becomes one PDF, one paragraph a page, uploaded into a Spark of its own; every
// question is asked in a test chat of that Spark; a few questions of another article are asked too,
// which the Spark should decline. Per language it reports:
//   P@1            the first source of the reply is the page of the gold paragraph
//   first sentence the reply's first sentence holds a gold answer
//   anywhere       the reply holds a gold answer
//   median chars   the median length of the replies (their Markdown text)
//   off-topic      how many questions from another article were declined (notCovered)
//
//   node bench/answer-quality.mjs                      both languages, every article (offline engine)
//   node bench/answer-quality.mjs --lang es --articles 4 --questions 10
//   node bench/answer-quality.mjs --llm                the model configured by LLM_BASE_URL/LLM_API_KEY/LLM_MODEL
//   node bench/answer-quality.mjs --llm-local          the model path against the suite's local OpenAI-compatible
//                                                      server (test/integration/support/openai-server.js: it answers
//                                                      with the passage sharing most words; checks the plumbing,
//                                                      it is not a model)
//   node bench/answer-quality.mjs --data <folder>      another set in the same format (xquad-dev.<lang>.json)
//   --off-topic 3   questions of the next article asked per Spark (default 3)
//   --json <file>   also writes every reply, for the regression test and for reading
//
// The data folder defaults to SPARKS_QA_DATA, else shared/data/xquad-dev beside the repository (or
// beside its parent, for a git worktree). Every 4th article (the 4th, 8th, …) is held out: the engine
// is tuned on the others (the development set) and the report gives both, so that a gain that only
// fits the development questions shows.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, log, machine, multipart, rootRequire, runBench, sleep, table, writeJsonIfAsked } from './lib/common.mjs';
import { firstSentence, heldOut, holds, median, plain } from './lib/answer-measures.mjs';
import { call, startStack } from './lib/stack.mjs';

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  const head = fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n');
  console.log(
    head
      .slice(
        1,
        head.findIndex((l) => l.startsWith('import ')),
      )
      .map((l) => l.replace(/^\/\/ ?/, ''))
      .join('\n'),
  );
  process.exit(0);
}
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const LANGS = opt('lang', 'en,es').split(',');
const MAX_ARTICLES = Number(opt('articles', Infinity));
const MAX_QUESTIONS = Number(opt('questions', Infinity));
const OFF_TOPIC = Number(opt('off-topic', 3));
const LLM_LOCAL = argv.includes('--llm-local');
const USE_LLM = argv.includes('--llm') || LLM_LOCAL;
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
function loadArticles(lang) {
  const file = path.join(DATA_DIR, `xquad-dev.${lang}.json`);
  if (!fs.existsSync(file)) throw new Error(`${file} not found: pass --data <folder> or set SPARKS_QA_DATA`);
  const { data } = JSON.parse(fs.readFileSync(file, 'utf8'));
  return data.slice(0, MAX_ARTICLES).map((article, a) => ({
    n: a,
    title: article.title ?? `Article ${a + 1}`,
    paragraphs: article.paragraphs.map((p) => p.context),
    questions: article.paragraphs
      .flatMap((p, page) =>
        p.qas.map((q) => ({ id: q.id, question: q.question, answers: q.answers.map((x) => x.text), page: page + 1 })),
      )
      .slice(0, MAX_QUESTIONS),
  }));
}

/** One paragraph a page: the page number is the paragraph's, so a source names its paragraph. */
async function articlePdf(paragraphs) {
  const PDFDocument = rootRequire('pdfkit');
  for (const fontSize of [10, 8, 6]) {
    const doc = new PDFDocument({ autoFirstPage: false, compress: true, size: 'A4', margin: 50 });
    const parts = [];
    doc.on('data', (c) => parts.push(c));
    const done = new Promise((resolve) => doc.on('end', () => resolve(Buffer.concat(parts))));
    // pdfkit adds a page by itself when a text overflows: count them all.
    let pages = 0;
    doc.on('pageAdded', () => (pages += 1));
    for (const text of paragraphs) {
      doc.addPage();
      doc.fontSize(fontSize).text(text);
    }
    doc.end();
    const bytes = await done;
    if (pages === paragraphs.length) return bytes;
  }
  throw new Error('a paragraph does not fit on one page even at 6 pt');
}

async function upload(base, token, sparkId, name, bytes) {
  const form = multipart({ sparkId, name }, { name, bytes });
  const res = await fetch(`${base}/api/v1/bucket`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': form.type },
    body: form.body,
  });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`upload ${name}: HTTP ${res.status} ${JSON.stringify(body)}`);
  const id = body.data._id;
  for (let i = 0; i < 1200; i++) {
    const doc = await call(base, 'GET', `/api/v1/sparks/${sparkId}/documents/${id}`, { token });
    const status = doc.body?.data?.status;
    if (status === 'completed') return doc.body.data;
    if (status === 'error') throw new Error(`${name} could not be read: ${doc.body.data.error}`);
    await sleep(250);
  }
  throw new Error(`${name} was not read within 5 minutes`);
}

async function ask(base, conv, text) {
  const res = await call(base, 'POST', `/api/v1/sparks/${conv.sparkId}/chat/${conv.testId}`, {
    token: conv.token,
    body: { input: { text }, ...(conv.conversationId ? { conversationId: conv.conversationId } : {}) },
  });
  if (res.status !== 201) throw new Error(`chat: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  conv.conversationId = res.body.data.conversationId;
  const ai = res.body.data.ai;
  return { content: ai?.data?.content ?? '', kind: ai?.data?.answer ?? 'unknown', sources: ai?.data?.sources ?? [] };
}

async function runLanguage(stack, lang) {
  const articles = loadArticles(lang);
  const rows = [];
  const perArticle = [];
  for (const article of articles) {
    const t0 = performance.now();
    const user = await stack.createUser(lang);
    const spark = await call(stack.base, 'POST', '/api/v1/sparks', {
      token: user.token,
      body: { name: article.title.slice(0, 100), options: { language: lang } },
    });
    if (spark.status !== 201) throw new Error(`spark: HTTP ${spark.status} ${JSON.stringify(spark.body)}`);
    const sparkId = spark.body.data._id;
    await upload(
      stack.base,
      user.token,
      sparkId,
      `${article.title.slice(0, 60)}.pdf`,
      await articlePdf(article.paragraphs),
    );
    const test = await call(stack.base, 'POST', `/api/v1/sparks/${sparkId}/tests`, {
      token: user.token,
      body: { name: 'QA' },
    });
    const conv = { token: user.token, sparkId, testId: test.body.data._id };
    for (const q of article.questions) {
      const reply = await ask(stack.base, conv, q.question);
      rows.push({
        lang,
        article: article.n,
        id: q.id,
        question: q.question,
        answers: q.answers,
        page: q.page,
        offTopic: false,
        ...reply,
        p1: reply.sources[0]?.page === q.page,
        first: holds(firstSentence(reply.content), q.answers),
        anywhere: holds(plain(reply.content), q.answers),
        chars: reply.content.length,
      });
    }
    // Questions of the next article: the Spark's document does not cover them.
    const other = articles.length > 1 ? articles[(article.n + 1) % articles.length] : undefined;
    for (const q of (other?.questions ?? []).slice(0, OFF_TOPIC)) {
      const reply = await ask(stack.base, conv, q.question);
      rows.push({
        lang,
        article: article.n,
        id: q.id,
        question: q.question,
        offTopic: true,
        ...reply,
        declined: reply.kind === 'notCovered',
      });
    }
    perArticle.push({ lang, article: article.n, title: article.title, seconds: (performance.now() - t0) / 1000 });
    log(
      `${lang}: ${article.title} (${article.questions.length} questions) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  return { summaries: ['dev', 'held-out', 'all'].map((set) => summarize(lang, set, rows)), rows, perArticle };
}

function summarize(lang, set, all) {
  const rows = all.filter((r) => set === 'all' || (set === 'held-out') === heldOut(r.article));
  const on = rows.filter((r) => !r.offTopic);
  const off = rows.filter((r) => r.offTopic);
  const share = (list, key) => (list.length ? list.filter((r) => r[key]).length / list.length : NaN);
  return {
    lang,
    set,
    articles: new Set(rows.map((r) => r.article)).size,
    questions: on.length,
    p1: share(on, 'p1'),
    firstSentence: share(on, 'first'),
    anywhere: share(on, 'anywhere'),
    medianChars: median(on.map((r) => r.chars)),
    notCoveredOnTopic: on.filter((r) => r.kind === 'notCovered').length,
    offTopic: off.length,
    offTopicDeclined: off.filter((r) => r.declined).length,
  };
}

runBench(async () => {
  const local = LLM_LOCAL
    ? await rootRequire('./test/integration/support/openai-server.js').startOpenAiServer()
    : undefined;
  if (local) Object.assign(process.env, { LLM_BASE_URL: local.url, LLM_MODEL: 'local-test-server' });
  const llmEnv = USE_LLM
    ? Object.fromEntries(
        ['LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL', 'LLM_TIMEOUT_MS']
          .filter((k) => process.env[k])
          .map((k) => [k, process.env[k]]),
      )
    : {};
  if (USE_LLM && !llmEnv.LLM_BASE_URL && !llmEnv.LLM_API_KEY)
    throw new Error('--llm needs LLM_BASE_URL or LLM_API_KEY');
  const stack = await startStack('quality', llmEnv);
  const results = [];
  try {
    for (const lang of LANGS) results.push(await runLanguage(stack, lang));
  } finally {
    await local?.close();
  }
  const pct = (v) => (Number.isFinite(v) ? `${(v * 100).toFixed(1)} %` : '–');
  const m = machine();
  console.log(
    `## Answer quality (issue 17) — ${USE_LLM ? `model ${llmEnv.LLM_MODEL ?? '(default)'}` : 'offline engine'}\n`,
  );
  console.log(
    `${new Date().toISOString().slice(0, 10)} · ${m.cpus} × ${m.cpuModel} · Node ${m.node} · data ${path.basename(DATA_DIR)}\n`,
  );
  console.log(
    table(
      [
        ['lang', (r) => r.lang],
        ['articles', (r) => r.set],
        ['n', (r) => r.articles],
        ['questions', (r) => r.questions],
        ['P@1', (r) => pct(r.p1)],
        ['first sentence', (r) => pct(r.firstSentence)],
        ['anywhere', (r) => pct(r.anywhere)],
        ['median chars', (r) => r.medianChars],
        ['on-topic declined', (r) => r.notCoveredOnTopic],
        [
          'off-topic declined',
          (r) => `${r.offTopicDeclined} / ${r.offTopic} (${pct(r.offTopicDeclined / r.offTopic)})`,
        ],
      ],
      results.flatMap((r) => r.summaries),
    ),
  );
  writeJsonIfAsked({
    machine: m,
    engine: USE_LLM ? 'llm' : 'offline',
    summaries: results.flatMap((r) => r.summaries),
    rows: results.flatMap((r) => r.rows),
  });
});
