#!/usr/bin/env node
// What a Spark answers customers from a small business's own document (issue 29): each business of
// shared/data/smb-qa-dev (README there) becomes a PDF made as a word processor makes one (its lines kept,
// long lines wrapped), uploaded to a Spark in the document's language through the real api and worker; every
// question is asked in a test chat of that Spark. Per language it reports:
//   first sentence   the reply's first sentence holds a gold answer (answerable questions)
//   anywhere         the reply holds a gold answer
//   cut              answers that quote part of a sentence or row of the document without the rest
//   other line       answers that open with a value the document writes on another line
//   refused          questions the document does not answer, answered "not covered"
//   answered anyway  the same questions, answered with something
//   median chars     median length of the answers (Markdown)
//   ms / question    median time from sending the question to its reply
// and the same broken down by question kind and variant (--by kind,variant).
//
//   node bench/business-qa.mjs                 both languages, through the api and the worker (the record)
//   node bench/business-qa.mjs --direct        in this process: the PDF read by the worker's own reader
//                                              (poppler), written by its chunk writer, answered by its
//                                              answer engine; no HTTP or queues (seconds, for tuning)
//   node bench/business-qa.mjs --lang es --only bakery
//   node bench/business-qa.mjs --misses        also prints every question answered wrongly
//   node bench/business-qa.mjs --data <folder> another set in the same format (businesses.json)
//   node bench/business-qa.mjs --recall        (with --direct) recall@5 of the passages a language model would
//                                              be sent: the gold line among them
//   --json <file>   also writes every reply
// Needs the build (npm run build:server) and PostgreSQL and Redis on 127.0.0.1 (BENCH_PG_URL, BENCH_REDIS_URL).
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  businessPdf,
  comparable,
  documentSentences,
  figures,
  loadBusinesses,
  pct,
  plain,
  scoreReply,
  smbDataDir,
} from './lib/business-measures.mjs';
import {
  cpuOverRounds,
  log,
  machine,
  multipart,
  onCleanup,
  rootRequire,
  runBench,
  scratchDatabase,
  sleep,
  table,
  writeJsonIfAsked,
} from './lib/common.mjs';
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
const ONLY = opt('only', '');
const DIRECT = argv.includes('--direct');
const MISSES = argv.includes('--misses');
const RECALL = argv.includes('--recall');
const BY = opt('by', 'kind,variant').split(',').filter(Boolean);
const DATA_DIR = smbDataDir(opt('data', undefined));
// --set NAME=value,…: other values of ANSWERING (libs/engine/src/answers/answer.ts), in this process only (--direct).
for (const pair of opt('set', '').split(',').filter(Boolean)) {
  const { ANSWERING } = rootRequire('./libs/engine/dist/answers/answer.js');
  const [k, v] = pair.split('=');
  if (!(k in ANSWERING)) throw new Error(`ANSWERING has no ${k}`);
  ANSWERING[k] = Number(v);
}

/** Asks questions of one business's Spark; answers { content, kind, passages? } per question. */
async function directAsker() {
  const url = await scratchDatabase('business_qa');
  const { createDb, DocumentsRepository, SearchRepository } = rootRequire('./libs/db/dist/index.js');
  const { AnswerEngine } = rootRequire('./libs/engine/dist/index.js');
  const { choosePoppler, pdfReaderSettings, PdfTextReader, readPdfDocument } = rootRequire(
    './libs/knowledge/dist/index.js',
  );
  const { Pool } = rootRequire('pg');
  const pool = new Pool({ connectionString: url, max: 2 });
  onCleanup('close pool', () => pool.end());
  const { db, close } = createDb(url);
  onCleanup('close db', () => close?.());
  const documents = new DocumentsRepository(db);
  const MB = 1024 * 1024;
  const reader = new PdfTextReader({
    limits: { maxPages: 100, maxChars: 5_000_000, maxStreamBytes: 64 * MB, maxInflatedBytes: 256 * MB },
    timeoutMs: 60_000,
    maxMemoryMb: 256,
    maxRssMb: 1024,
    poppler: choosePoppler(pdfReaderSettings(process.env)).tools,
    concurrency: 1,
  });
  onCleanup('close pdf reader', () => reader.close());
  const engine = new AnswerEngine(new SearchRepository(db));
  const userId = (
    await pool.query(
      `INSERT INTO users (id, username, email) VALUES (gen_random_uuid(), 'qa@example.com', 'qa@example.com') RETURNING id`,
    )
  ).rows[0].id;
  return {
    async open(business) {
      const sparkId = (
        await pool.query(
          `INSERT INTO sparks (id, user_id, name, options) VALUES (gen_random_uuid(), $1, $2, $3) RETURNING id`,
          [userId, business.title.slice(0, 100), JSON.stringify({ language: business.lang })],
        )
      ).rows[0].id;
      const bytes = await businessPdf(business.pages);
      const { read } = await readPdfDocument(reader, bytes, business.lang);
      if (!read) throw new Error(`${business.id}: no text read`);
      const documentId = (
        await pool.query(
          `INSERT INTO documents (id, spark_id, user_id, name, storage_key, size, sha256, status)
           VALUES (gen_random_uuid(), $1, $2, $3, 'bench', $4, md5(random()::text), 'inProgress') RETURNING id`,
          [sparkId, userId, `${business.id}-${business.lang}.pdf`, bytes.length],
        )
      ).rows[0].id;
      await documents.complete(documentId, { ...read, chunks: read.chunks });
      return async (question) => {
        const out = await engine.answer({
          sparkId,
          language: business.lang,
          initialMessage: 'Hello!',
          sysPrompt: '',
          question,
          history: [],
          onToken: () => undefined,
        });
        const passages = RECALL ? await engine.modelPassages(sparkId, business.lang, question) : undefined;
        return { content: out.text, kind: out.kind, passages };
      };
    },
  };
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
  for (let i = 0; i < 1200; i++) {
    const doc = await call(base, 'GET', `/api/v1/sparks/${sparkId}/documents/${body.data._id}`, { token });
    const status = doc.body?.data?.status;
    if (status === 'completed') return;
    if (status === 'error') throw new Error(`${name} could not be read: ${doc.body.data.error}`);
    await sleep(100);
  }
  throw new Error(`${name} was not read within 2 minutes`);
}

/** Asks through the api: one user, Spark and test chat per business, the PDF uploaded and read by the worker. */
async function apiAsker() {
  const stack = await startStack('business_qa');
  const cpu = cpuOverRounds(stack.meter);
  return {
    cpu,
    async open(business) {
      const user = await stack.createUser(business.lang);
      const spark = await call(stack.base, 'POST', '/api/v1/sparks', {
        token: user.token,
        body: { name: business.title.slice(0, 100), options: { language: business.lang } },
      });
      if (spark.status !== 201) throw new Error(`spark: HTTP ${spark.status} ${JSON.stringify(spark.body)}`);
      const sparkId = spark.body.data._id;
      await upload(
        stack.base,
        user.token,
        sparkId,
        `${business.id}-${business.lang}.pdf`,
        await businessPdf(business.pages),
      );
      const test = await call(stack.base, 'POST', `/api/v1/sparks/${sparkId}/tests`, {
        token: user.token,
        body: { name: 'QA' },
      });
      const conv = { testId: test.body.data._id };
      return (question) =>
        cpu.measure(async () => {
          const res = await call(stack.base, 'POST', `/api/v1/sparks/${sparkId}/chat/${conv.testId}`, {
            token: user.token,
            body: {
              input: { text: question },
              ...(conv.conversationId ? { conversationId: conv.conversationId } : {}),
            },
          });
          if (res.status !== 201) throw new Error(`chat: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
          conv.conversationId = res.body.data.conversationId;
          const ai = res.body.data.ai;
          return { content: ai?.data?.content ?? '', kind: ai?.data?.answer ?? 'unknown' };
        });
    },
  };
}

/** Whether one of the passages a model would be sent holds the gold answer. */
const recalled = (passages, gold) =>
  passages.some((p) => gold.some((g) => comparable(p.content).includes(comparable(g))));

runBench(async () => {
  const businesses = loadBusinesses(DATA_DIR).filter(
    (b) => LANGS.includes(b.lang) && (!ONLY || ONLY.split(',').includes(b.id)),
  );
  const asker = DIRECT ? await directAsker() : await apiAsker();
  const rows = [];
  for (const business of businesses) {
    const t0 = performance.now();
    const ask = await asker.open(business);
    const sentences = documentSentences(business);
    for (const q of business.questions) {
      const start = performance.now();
      const reply = await ask(q.q);
      const ms = performance.now() - start;
      rows.push({
        business: business.id,
        lang: business.lang,
        question: q.q,
        gold: q.gold,
        reply,
        ms,
        ...scoreReply(q, reply, sentences),
        ...(reply.passages && q.gold ? { recall5: recalled(reply.passages, q.gold) } : {}),
      });
    }
    log(`${business.lang}: ${business.title} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  if (MISSES) {
    for (const r of rows) {
      const wrong = r.covered ? !r.first : !r.refused;
      if (!wrong && !r.cut && !r.otherValue) continue;
      const flags = [
        r.covered ? (r.first ? 'OK' : r.anywhere ? 'LATER' : 'MISS') : r.refused ? 'REFUSED' : 'NOT-REFUSED',
        r.cut ? 'CUT' : '',
        r.otherValue ? 'OTHER' : '',
      ]
        .filter(Boolean)
        .join(',');
      console.log(
        `${r.lang} ${r.business} [${r.kind}/${r.variant}] ${flags} | ${r.question} | ${JSON.stringify(r.gold)} | ${plain(r.reply.content).slice(0, 200)}`,
      );
    }
    console.log('');
  }

  const m = machine();
  console.log(
    `## Small-business answers (issue 29) — offline engine${DIRECT ? ', in-process (--direct)' : ', api and worker'}\n`,
  );
  console.log(
    `${new Date().toISOString().slice(0, 10)} · ${m.cpus} × ${m.cpuModel} · Node ${m.node} · data ${DATA_DIR.split('/').slice(-1)[0]} · ${businesses.length} documents\n`,
  );
  const summary = LANGS.map((lang) => ({ lang, ...figures(rows.filter((r) => r.lang === lang)) }));
  const cross = LANGS.map((lang) => ({
    lang,
    ...figures(rows.filter((r) => r.lang === lang && r.variant === 'cross-language')),
  }));
  console.log(
    table(
      [
        ['lang', (r) => r.lang],
        ['questions', (r) => r.questions],
        ['first sentence', (r) => pct(r.first)],
        ['anywhere', (r) => pct(r.anywhere)],
        ['cut', (r) => pct(r.cut)],
        ['other line', (r) => pct(r.otherValue)],
        ['refused', (r) => `${pct(r.refused)} of ${r.notCovered}`],
        ['answered anyway', (r) => pct(r.answeredAnyway)],
        ['other language', (r) => pct(cross.find((c) => c.lang === r.lang).first)],
        ['median chars', (r) => r.medianChars],
        ['ms / question', (r) => r.msPerQuestion.toFixed(1)],
      ],
      summary,
    ),
  );
  if (RECALL) {
    const rec = LANGS.map((lang) => {
      const on = rows.filter((r) => r.lang === lang && r.recall5 !== undefined);
      const sent = on.filter((r) => r.reply.kind === 'answer');
      return {
        lang,
        n: on.length,
        recall: on.filter((r) => r.recall5).length / on.length,
        sent: sent.length,
        recallSent: sent.filter((r) => r.recall5).length / sent.length,
      };
    });
    console.log(
      `\nrecall@5 (gold among the passages a model is sent; a question the documents do not cover is sent none): ${rec
        .map((r) => `${r.lang} ${pct(r.recall)} of ${r.n} (${pct(r.recallSent)} of the ${r.sent} sent)`)
        .join(' · ')}`,
    );
  }
  if (asker.cpu) {
    const c = asker.cpu.result();
    const n = rows.length;
    const perQ = (((c.api ?? 0) + (c.worker ?? 0) + (c.postgres ?? 0) + (c.redis ?? 0)) * c.wall * 1000) / n;
    console.log(
      `\nCPU per question (api + worker + PostgreSQL + Redis): ${perQ.toFixed(1)} ms (api ${(((c.api ?? 0) * c.wall * 1000) / n).toFixed(1)}, worker ${(((c.worker ?? 0) * c.wall * 1000) / n).toFixed(1)}, PostgreSQL ${(((c.postgres ?? 0) * c.wall * 1000) / n).toFixed(1)})`,
    );
  }
  for (const by of BY) {
    const keys = [...new Set(rows.map((r) => r[by]))].sort();
    console.log(`\n### By ${by}\n`);
    console.log(
      table(
        [
          [by, (r) => r.key],
          ...LANGS.flatMap((lang) => [
            [`${lang} first sentence`, (r) => `${pct(r[lang].first)} of ${r[lang].answerable}`],
            [`${lang} refused`, (r) => (r[lang].notCovered ? `${pct(r[lang].refused)} of ${r[lang].notCovered}` : '–')],
          ]),
        ],
        keys.map((key) => ({
          key,
          ...Object.fromEntries(
            LANGS.map((lang) => [lang, figures(rows.filter((r) => r.lang === lang && r[by] === key))]),
          ),
        })),
      ),
    );
  }
  writeJsonIfAsked({ machine: m, direct: DIRECT, summary, rows });
});
