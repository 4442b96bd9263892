#!/usr/bin/env node
// Retrieval latency: `retrieve()` of libs/engine (the full-text search the worker runs for a Spark too large
// to read whole) over 10⁴ and 10⁵ generated chunks (10⁶ with --scale 100000); and, for the same questions,
// what an offline answer costs in all: the knowledge it reads (answers/load.ts: the search, and the rows that
// hold business facts) and the whole answer. See bench/README.md.
//
//   node bench/retrieval.mjs [--calls 300] [--scale 10000] [--json out.json]
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  STAT_COLUMNS,
  cpuMeter,
  formatCpu,
  log,
  machine,
  ms,
  rng,
  rootRequire,
  runBench,
  scratchDatabase,
  onCleanup,
  summarize,
  table,
  writeJsonIfAsked,
} from './lib/common.mjs';
import { QUESTIONS, chunkText } from './lib/corpus.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CALLS = arg('calls', 300);
/** Chunks per Spark; the table grows to 10 × SCALE. */
const SCALE = arg('scale', 10_000);
const SPARKS = 10;
const CHUNKS_PER_DOC = 100;
const BATCH = 1000;
const K = 4;

const { createDb, SearchRepository } = rootRequire('./libs/db/dist/index.js');
const { AnswerEngine, retrieve } = rootRequire('./libs/engine/dist/index.js');
const { KnowledgeLoader } = rootRequire('./libs/engine/dist/answers/load.js');
// Chunk ids as ingestion makes them (documents.repository.ts): UUIDv7, in insertion order.
const { uuidv7 } = rootRequire('uuidv7');

async function insertSpark(pool, userId, n) {
  const r = await pool.query(
    `INSERT INTO sparks (id, user_id, name, options) VALUES ($1, $2, $3, '{}'::jsonb) RETURNING id`,
    [randomUUID(), userId, `Spark ${n}`],
  );
  return r.rows[0].id;
}

/** `count` chunks in documents of 100 chunks, 80 % in the Spark's language, 20 % in the other. */
async function fill(pool, { sparkId, userId, count, language, seed }) {
  const r = rng(seed);
  const other = language === 'es' ? 'en' : 'es';
  const batches = [];
  for (let start = 0; start < count; start += BATCH) batches.push(Math.min(BATCH, count - start));
  let next = 0;
  let docNo = 0;
  const t0 = performance.now();
  // Two writers: generating text (Node) and to_tsvector (PostgreSQL) overlap on two cores.
  const writer = async () => {
    for (;;) {
      const b = next++;
      if (b >= batches.length) return;
      const docs = [];
      const chunkRows = { id: [], doc: [], ord: [], page: [], content: [], config: [] };
      for (let i = 0; i < batches[b]; i += CHUNKS_PER_DOC) {
        const lang = r() < 0.8 ? language : other;
        const id = randomUUID();
        let chars = 0;
        const pages = Math.min(CHUNKS_PER_DOC, batches[b] - i);
        for (let p = 0; p < pages; p++) {
          const content = chunkText(r, lang);
          chars += content.length;
          chunkRows.id.push(uuidv7());
          chunkRows.doc.push(id);
          chunkRows.ord.push(p);
          chunkRows.page.push(p + 1);
          chunkRows.content.push(content);
          chunkRows.config.push(lang === 'es' ? 'spanish' : 'english');
        }
        docs.push({ id, name: `${lang === 'es' ? 'Catálogo' : 'Handbook'} ${++docNo}.pdf`, pages, chars, lang });
      }
      await pool.query(
        `INSERT INTO documents (id, spark_id, user_id, name, storage_key, size, sha256, status, pages, chars, language)
         SELECT d.id, $1, $2, d.name, 'bench/' || d.id, d.chars, d.sha, 'completed', d.pages, d.chars, d.lang::language
           FROM unnest($3::uuid[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[])
                AS d(id, name, sha, pages, chars, lang)`,
        [
          sparkId,
          userId,
          docs.map((d) => d.id),
          docs.map((d) => d.name),
          docs.map(() => randomBytes(32).toString('hex')),
          docs.map((d) => d.pages),
          docs.map((d) => d.chars),
          docs.map((d) => d.lang),
        ],
      );
      // One chunk in fifty holds business facts (a price list's rows), as catalogues do.
      await pool.query(
        `INSERT INTO document_chunks (id, document_id, spark_id, ord, page, content, config, tsv, facts)
         SELECT c.id, c.doc, $1, c.ord, c.page, c.content, c.config, to_tsvector(c.config::regconfig, c.content),
                CASE WHEN c.ord % 50 = 7 THEN jsonb_build_array(jsonb_build_object('kind', 'price', 'line', c.content,
                       'item', left(c.content, 30), 'price', '4,50 EUR')) END
           FROM unnest($2::uuid[], $3::uuid[], $4::int[], $5::int[], $6::text[], $7::text[]) AS c(id, doc, ord, page, content, config)`,
        [sparkId, chunkRows.id, chunkRows.doc, chunkRows.ord, chunkRows.page, chunkRows.content, chunkRows.config],
      );
    }
  };
  await Promise.all([writer(), writer()]);
  return performance.now() - t0;
}

/**
 * The candidate set of the engine's old single query (before 2026-11-22): chunks matching any term by
 * stem prefix. It says how common a question's words are in the Spark.
 */
async function candidates(pool, sparkId, question, config) {
  const r = await pool.query(
    `WITH q AS (
       SELECT CASE WHEN cardinality(lexemes) = 0 THEN NULL ELSE to_tsquery('simple', array_to_string(ARRAY(
                SELECT CASE WHEN length(l) >= 3 THEN quote_literal(left(l, greatest(3, length(l) - 2))) || ':*' ELSE quote_literal(l) END
                  FROM unnest(lexemes) l), ' | ')) END AS loose
         FROM (SELECT tsvector_to_array(to_tsvector($2::regconfig, $3)) AS lexemes) s)
     SELECT count(*)::int AS n FROM document_chunks c, q WHERE c.spark_id = $1 AND c.tsv @@ q.loose`,
    [sparkId, config, question],
  );
  return r.rows[0].n;
}

async function sizes(pool) {
  const r = await pool.query(`SELECT count(*)::int AS chunks,
      pg_size_pretty(pg_total_relation_size('document_chunks')) AS total,
      pg_size_pretty(pg_relation_size('document_chunks_tsv_idx')) AS gin,
      pg_size_pretty(pg_relation_size('document_chunks_prefix_idx')) AS prefix_gin FROM document_chunks`);
  return r.rows[0];
}

async function measure(db, pool, captured, { label, sparkId, sparkChunks }) {
  const search = new SearchRepository(db);
  log(`${label}: warming up`);
  const questions = QUESTIONS.map((q) => ({ ...q, samples: [], hits: 0 }));
  for (let round = 0; round < 2; round++)
    for (const q of questions) {
      captured.length = 0;
      await retrieve(search, { sparkId, question: q.text, language: 'es', k: K });
      q.statements = captured.length;
    }
  // Candidates of the search in the question's own language (an English question to a Spanish
  // Spark finds little with 'spanish' and is searched again with 'english').
  for (const q of questions)
    q.candidates = await candidates(pool, sparkId, q.text, q.lang === 'es' ? 'spanish' : 'english');
  const r = rng(4242);
  const order = Array.from({ length: CALLS }, (_, i) => questions[i % questions.length]);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  log(`${label}: timing ${CALLS} calls`);
  const cpu = cpuMeter({ pool, database: new URL(pool.options.connectionString).pathname.slice(1) });
  await cpu.start();
  const all = [];
  for (const q of order) {
    const t0 = performance.now();
    const hits = await retrieve(search, { sparkId, question: q.text, language: 'es', k: K });
    const dt = performance.now() - t0;
    q.samples.push(dt);
    q.hits = hits.length;
    all.push(dt);
  }
  const cpuUse = await cpu.stop();
  // The same questions through what an answer does: the knowledge it reads, then the whole offline answer.
  const loader = new KnowledgeLoader(search);
  const engine = new AnswerEngine(search);
  const loading = [];
  const answering = [];
  for (const q of order.slice(0, Math.min(order.length, 150))) {
    let t0 = performance.now();
    await loader.load(sparkId, q.text, 'es');
    loading.push(performance.now() - t0);
    t0 = performance.now();
    await engine.answer({
      sparkId,
      language: 'es',
      initialMessage: '',
      sysPrompt: '',
      question: q.text,
      history: [],
      onToken: () => undefined,
    });
    answering.push(performance.now() - t0);
  }
  const byKind = {};
  for (const kind of ['common', 'rare', 'absent']) {
    const qs = questions.filter((q) => q.kind === kind);
    const cands = qs.map((q) => q.candidates).sort((a, b) => a - b);
    byKind[kind] = {
      ...summarize(qs.flatMap((q) => q.samples)),
      candidates: `${cands[0]}–${cands[cands.length - 1]}`,
    };
  }
  const perQuestion = questions
    .map((q) => ({
      text: q.text,
      lang: q.lang,
      kind: q.kind,
      candidates: q.candidates,
      statements: q.statements,
      hits: q.hits,
      ...summarize(q.samples),
    }))
    .sort((a, b) => b.p50 - a.p50);
  // The plan of the slowest question's last statement (the one that searches and ranks), for the diagnosis.
  const slowest = perQuestion[0];
  captured.length = 0;
  await retrieve(search, { sparkId, question: slowest.text, language: 'es', k: K });
  const last = captured[captured.length - 1];
  const plan = (await pool.query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${last.text}`, values: last.values })).rows
    .map((row) => row['QUERY PLAN'])
    .join('\n');
  const s = await sizes(pool);
  return {
    label,
    sparkChunks,
    tableChunks: s.chunks,
    tableSize: s.total,
    ginSize: s.gin,
    prefixGinSize: s.prefix_gin,
    ...summarize(all),
    cpu: cpuUse,
    loading: summarize(loading),
    answering: summarize(answering),
    byKind,
    perQuestion,
    slowestPlan: plan,
    statements: captured.length,
  };
}

runBench(async () => {
  const started = new Date();
  const url = await scratchDatabase('retrieval');
  const handle = createDb(url, 4);
  onCleanup('close pool', () => handle.close());
  const { db, pool } = handle;
  // Capture the statements retrieve() sends (all of them read document_chunks), to EXPLAIN the slowest one.
  const captured = [];
  const query = pool.query.bind(pool);
  pool.query = (cfg, values) => {
    if (cfg && typeof cfg === 'object' && typeof cfg.text === 'string' && cfg.text.includes('document_chunks'))
      captured.push({ text: cfg.text, values: cfg.values ?? values });
    return query(cfg, values);
  };

  const user = await query(
    `INSERT INTO users (id, username, email, language) VALUES ($1, 'bench@example.com', 'bench@example.com', 'es') RETURNING id`,
    [randomUUID()],
  );
  const userId = user.rows[0].id;
  const sparkIds = [];
  for (let n = 0; n < SPARKS; n++) sparkIds.push(await insertSpark(pool, userId, n + 1));
  const target = sparkIds[0];
  const results = [];
  const vacuum = async () => {
    const t0 = performance.now();
    await query('VACUUM ANALYZE document_chunks');
    await query('VACUUM ANALYZE documents');
    return performance.now() - t0;
  };

  // A — 10⁴ chunks, all in the Spark.
  let t = await fill(pool, { sparkId: target, userId, count: SCALE, language: 'es', seed: 1 });
  log(`inserted ${SCALE} chunks in ${(t / 1000).toFixed(1)} s; vacuum ${(await vacuum()).toFixed(0)} ms`);
  results.push(
    await measure(db, pool, captured, {
      label: `${SCALE} in the table, all in this Spark`,
      sparkId: target,
      sparkChunks: SCALE,
    }),
  );

  // B — 10⁵ in the table, 10⁴ in this Spark (nine other Sparks, half of them in English).
  t = 0;
  for (let n = 1; n < SPARKS; n++)
    t += await fill(pool, { sparkId: sparkIds[n], userId, count: SCALE, language: n % 2 ? 'en' : 'es', seed: n + 1 });
  log(
    `inserted ${(SPARKS - 1) * SCALE} chunks in ${(t / 1000).toFixed(1)} s; vacuum ${(await vacuum()).toFixed(0)} ms`,
  );
  results.push(
    await measure(db, pool, captured, {
      label: `${SPARKS * SCALE} in the table, ${SCALE} in this Spark`,
      sparkId: target,
      sparkChunks: SCALE,
    }),
  );

  // C — one Spark holds all 10⁵: the other Sparks' documents move to it.
  const t0 = performance.now();
  await query('UPDATE documents SET spark_id = $1 WHERE spark_id <> $1', [target]);
  await query('UPDATE document_chunks SET spark_id = $1 WHERE spark_id <> $1', [target]);
  log(`moved chunks in ${((performance.now() - t0) / 1000).toFixed(1)} s; vacuum ${(await vacuum()).toFixed(0)} ms`);
  results.push(
    await measure(db, pool, captured, {
      label: `${SPARKS * SCALE} in the table, all in this Spark`,
      sparkId: target,
      sparkChunks: SPARKS * SCALE,
    }),
  );

  const pg = (await query('SHOW shared_buffers')).rows[0].shared_buffers;
  const out = { date: started.toISOString(), machine: machine(), sharedBuffers: pg, calls: CALLS, k: K, results };
  writeJsonIfAsked(out);
  print(out);
});

function print(out) {
  const lines = [];
  lines.push(`## Retrieval — retrieve(search, { sparkId, question, language: 'es', k: ${out.k} })`, '');
  lines.push(
    `${out.calls} calls per row, ${QUESTIONS.length} questions in a fixed shuffled order, after a warm-up.`,
    '',
  );
  lines.push(
    table(
      [
        ['chunks', (r) => r.label],
        ...STAT_COLUMNS,
        ['table + indexes', (r) => r.tableSize],
        ['GIN (spark_id, tsv)', (r) => r.ginSize],
        ['GIN (spark_id, prefixes)', (r) => r.prefixGinSize],
        ['CPU in cores while timing', (r) => formatCpu(r.cpu)],
      ],
      out.results,
    ),
  );
  lines.push('', 'What an offline answer costs at each size (the same questions, first 150 of the order):', '');
  lines.push(
    table(
      [
        ['chunks', (r) => r.label],
        ['knowledge read: p50 ms', (r) => ms(r.loading.p50)],
        ['p95 ms', (r) => ms(r.loading.p95)],
        ['p99 ms', (r) => ms(r.loading.p99)],
        ['whole answer: p50 ms', (r) => ms(r.answering.p50)],
        ['p95 ms', (r) => ms(r.answering.p95)],
        ['p99 ms', (r) => ms(r.answering.p99)],
      ],
      out.results,
    ),
  );
  for (const r of out.results) {
    lines.push('', `### ${r.label}: by kind of question`, '');
    lines.push(
      table(
        [['kind', (x) => x.kind], ['candidate chunks', (x) => x.candidates], ...STAT_COLUMNS],
        Object.entries(r.byKind).map(([kind, v]) => ({ kind, ...v })),
      ),
    );
  }
  const last = out.results[out.results.length - 1];
  lines.push('', `### ${last.label}: per question (slowest first)`, '');
  lines.push(
    table(
      [
        ['question', (x) => x.text],
        ['kind', (x) => x.kind],
        ['candidates', (x) => String(x.candidates)],
        ['statements', (x) => String(x.statements)],
        ['p50 ms', (x) => ms(x.p50)],
        ['max ms', (x) => ms(x.max)],
      ],
      last.perQuestion,
    ),
  );
  lines.push('', `Plan of the slowest question's last statement (${last.label}):`, '', '```', last.slowestPlan, '```');
  process.stdout.write(`${lines.join('\n')}\n`);
}
