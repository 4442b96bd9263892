#!/usr/bin/env node
// Exploration, not a benchmark of the product: how fast would other forms of the retrieval query be
// on the same corpus? The candidate/ranking part of libs/engine/src/retrieval.ts as it was before the
// tiered search (2026-11-22 morning) is copied here and varied; nothing in the product is changed. The
// "retrieve()" row times the engine as it is now. Since migration 0004 the table always has a GIN
// index on (spark_id, tsv), so the first two columns no longer differ by it. The numbers back the
// suggestions in RESULTS.md. See bench/README.md.
//
//   node bench/retrieval-variants.mjs [--scale 10000]
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { log, onCleanup, rng, rootRequire, runBench, scratchDatabase, summarize, table, ms } from './lib/common.mjs';
import { chunkText } from './lib/corpus.mjs';

const i = process.argv.indexOf('--scale');
const SCALE = i > 0 ? Number(process.argv[i + 1]) : 10_000;
const SPARKS = 10;
const ROUNDS = 5;

const { createDb, SearchRepository } = rootRequire('./libs/db/dist/index.js');
const { retrieve } = rootRequire('./libs/engine/dist/index.js');

// The questions that cost the most in retrieval.mjs: common words, and a rare term next to a common verb.
const QUESTIONS = [
  '¿Cómo puedo solicitar un presupuesto?',
  '¿Puedo pagar la factura con tarjeta de crédito?',
  '¿Los precios incluyen el IVA?',
  '¿Cuánto tarda el reembolso de una devolución?',
  '¿Se puede financiar con leasing?',
  '¿Vendéis bicicletas eléctricas?',
];

/** Any question term; by stem prefix (3+ letters, as the engine does) or exact; optionally without frequent terms. */
const loose = ({
  prefix,
  dropFrequent,
}) => `CASE WHEN cardinality(lexemes) = 0 THEN NULL ELSE to_tsquery('simple', array_to_string(ARRAY(
    SELECT ${prefix ? `CASE WHEN length(l) >= 3 THEN quote_literal(left(l, greatest(3, length(l) - 2))) || ':*' ELSE quote_literal(l) END` : 'quote_literal(l)'}
      FROM unnest(lexemes) l
     ${dropFrequent ? 'WHERE l NOT IN (SELECT word FROM bench_lexeme_share WHERE spark_id = $1 AND share > 0.05)' : ''}), ' | ')) END`;

function variant(name, { prefix = true, dropFrequent = false, rank = 'ts_rank_cd', strictOnly = false, cap = 0 }) {
  const q = `q AS (SELECT websearch_to_tsquery('spanish', $2) AS strict, ${loose({ prefix, dropFrequent })} AS loose
                FROM (SELECT tsvector_to_array(to_tsvector('spanish', $2)) AS lexemes) s)`;
  const match = strictOnly ? 'c.tsv @@ q.strict' : 'q.loose IS NOT NULL AND c.tsv @@ q.loose';
  const from = cap
    ? `(SELECT c.id, c.tsv FROM document_chunks c, q WHERE c.spark_id = $1 AND ${match} LIMIT ${cap}) c, q WHERE true`
    : `document_chunks c, q WHERE c.spark_id = $1 AND ${match}`;
  return {
    name,
    sql: `WITH ${q} SELECT c.id FROM ${from}
           ORDER BY (c.tsv @@ q.strict) DESC, ${rank}(c.tsv, q.loose) DESC, c.id LIMIT 12`,
  };
}

const VARIANTS = [
  variant('V0 the engine’s candidate query as it is (any term, 3+ letter stem prefix, ts_rank_cd)', {}),
  variant('V1 same candidates, ranked with ts_rank', { rank: 'ts_rank' }),
  variant('V2 only chunks holding every term (websearch_to_tsquery)', { strictOnly: true }),
  variant('V3 any term, exact stems (no prefixes)', { prefix: false }),
  variant('V4 as V0 without terms found in > 5 % of the Spark’s chunks', { dropFrequent: true }),
  variant('V5 as V4, ranking at most 500 candidates', { dropFrequent: true, cap: 500 }),
  variant('V6 as V0, ranking at most 500 candidates', { cap: 500 }),
];

async function fill(pool, sparkId, userId, count, language, seed) {
  const r = rng(seed);
  const other = language === 'es' ? 'en' : 'es';
  for (let start = 0; start < count; start += 1000) {
    const doc = randomUUID();
    await pool.query(
      `INSERT INTO documents (id, spark_id, user_id, name, storage_key, size, sha256, status, pages, chars, language)
       VALUES ($1, $2, $3, 'bench.pdf', 'bench', 1, $4, 'completed', 1000, 1, $5)`,
      [doc, sparkId, userId, randomBytes(32).toString('hex'), language],
    );
    const contents = [];
    const configs = [];
    for (let n = 0; n < 1000; n++) {
      const lang = r() < 0.8 ? language : other;
      contents.push(chunkText(r, lang));
      configs.push(lang === 'es' ? 'spanish' : 'english');
    }
    await pool.query(
      `INSERT INTO document_chunks (id, document_id, spark_id, ord, page, content, config, tsv)
       SELECT gen_random_uuid(), $1, $2, o, o, c, g, to_tsvector(g::regconfig, c)
         FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS t(c, g, o)`,
      [doc, sparkId, contents, configs],
    );
  }
}

async function timeAll(db, pool, sparkId, corpus) {
  const search = new SearchRepository(db);
  const samples = new Map([['retrieve() as it is (the whole call)', []], ...VARIANTS.map((v) => [v.name, []])]);
  for (let round = 0; round <= ROUNDS; round++)
    for (const question of QUESTIONS) {
      let t0 = performance.now();
      await retrieve(search, { sparkId, question, language: 'es', k: 4 });
      if (round > 0) samples.get('retrieve() as it is (the whole call)').push(performance.now() - t0);
      for (const v of VARIANTS) {
        t0 = performance.now();
        await pool.query(v.sql, [sparkId, question]);
        if (round > 0) samples.get(v.name).push(performance.now() - t0); // round 0 warms up
      }
    }
  return [...samples].map(([name, s]) => ({ corpus, name, ...summarize(s) }));
}

runBench(async () => {
  const url = await scratchDatabase('variants');
  const handle = createDb(url, 2);
  onCleanup('close pool', () => handle.close());
  const { db, pool } = handle;
  const userId = (
    await pool.query(
      `INSERT INTO users (id, username, email) VALUES ($1, 'v@example.com', 'v@example.com') RETURNING id`,
      [randomUUID()],
    )
  ).rows[0].id;
  const sparks = [];
  for (let n = 0; n < SPARKS; n++)
    sparks.push(
      (
        await pool.query(`INSERT INTO sparks (id, user_id, name, options) VALUES ($1, $2, 's', '{}') RETURNING id`, [
          randomUUID(),
          userId,
        ])
      ).rows[0].id,
    );
  log(`inserting ${SPARKS * SCALE} chunks`);
  for (let n = 0; n < SPARKS; n++) await fill(pool, sparks[n], userId, SCALE, n % 2 ? 'en' : 'es', n + 1);
  // Per-Spark share of chunks holding each lexeme (what ingestion could maintain).
  const share = async (sparkId, total) =>
    pool.query(
      `INSERT INTO bench_lexeme_share SELECT $1::uuid, word, ndoc::float / $2
         FROM ts_stat(format('SELECT tsv FROM document_chunks WHERE spark_id = %L', $1::text))`,
      [sparkId, total],
    );
  await pool.query('CREATE TABLE bench_lexeme_share (spark_id uuid, word text, share float)');
  await share(sparks[0], SCALE);
  await pool.query('VACUUM ANALYZE');
  const rows = [];
  log(`timing: ${SCALE} in one Spark of ${SPARKS * SCALE}`);
  rows.push(...(await timeAll(db, pool, sparks[0], `${SCALE} of ${SPARKS * SCALE}`)));
  await pool.query('CREATE EXTENSION IF NOT EXISTS btree_gin');
  await pool.query('CREATE INDEX bench_chunks_spark_tsv ON document_chunks USING gin (spark_id, tsv)');
  await pool.query('ANALYZE document_chunks');
  log('timing: same, with a GIN index on (spark_id, tsv)');
  rows.push(...(await timeAll(db, pool, sparks[0], `${SCALE} of ${SPARKS * SCALE}, GIN (spark_id, tsv)`)));
  await pool.query('DROP INDEX bench_chunks_spark_tsv');
  await pool.query('UPDATE documents SET spark_id = $1', [sparks[0]]);
  await pool.query('UPDATE document_chunks SET spark_id = $1', [sparks[0]]);
  await pool.query('DELETE FROM bench_lexeme_share');
  await share(sparks[0], SPARKS * SCALE);
  await pool.query('VACUUM ANALYZE');
  log(`timing: all ${SPARKS * SCALE} in one Spark`);
  rows.push(...(await timeAll(db, pool, sparks[0], `all ${SPARKS * SCALE} in one Spark`)));
  const lines = [
    '## Retrieval query variants (exploration)',
    '',
    `${QUESTIONS.length} costly Spanish questions × ${ROUNDS} rounds per row, after a warm-up round. The variants return chunk ids only (no excerpts, no document names).`,
    '',
    table(
      [
        ['chunks', (r) => r.corpus],
        ['variant', (r) => r.name],
        ['p50 ms', (r) => ms(r.p50)],
        ['p95 ms', (r) => ms(r.p95)],
        ['max ms', (r) => ms(r.max)],
      ],
      rows,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
});
