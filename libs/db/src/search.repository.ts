import { documentTitle } from '@sparks/contracts';
import type { TextSearchConfig } from '@sparks/core';
import type {
  ChunkRecord,
  FoundPassage,
  KnowledgeSearch,
  LanguageSearch,
  PassageSearch,
  SampledTerm,
  TermSample,
} from '@sparks/engine';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './client';

/*
 * The full-text queries of the answer engine and the help articles: the `KnowledgeSearch` port of
 * `@sparks/engine`. Queries only: the engine plans the search (its tsqueries and tiers) and ranks what
 * comes back.
 */

type ChunkRow = {
  id: string;
  document_id: string;
  name: string;
  title: string | null;
  page: number;
  content: string;
  config: string;
  facts: object[] | null;
  origin: 'file' | 'owner';
};

const chunkRecord = (r: ChunkRow): ChunkRecord => ({
  id: r.id,
  documentId: r.document_id,
  documentName: documentTitle(r),
  page: r.page,
  content: r.content,
  config: r.config,
  facts: r.facts,
  origin: r.origin,
});

type PassageRow = {
  chunk_id: string;
  document_id: string;
  document_name: string;
  document_title: string | null;
  page: number;
  content: string;
  rank: number;
  matched: number;
  strict: boolean;
  lang: number;
  origin: 'file' | 'owner';
  config: string;
  facts: object[] | null;
};

/** Reads of `document_chunks` (and their documents) for answers and help: see the comment above. */
export class SearchRepository implements KnowledgeSearch {
  constructor(private readonly db: Database) {}

  async lexemes(texts: readonly string[], configs: readonly TextSearchConfig[]): Promise<string[][]> {
    const result = await this.db.execute<{ stems: string[] }>(sql`
      SELECT tsvector_to_array(to_tsvector(w.cfg::regconfig, w.word)) AS stems
        FROM unnest(${sql.param([...texts])}::text[], ${sql.param([...configs])}::text[])
             WITH ORDINALITY AS w(word, cfg, i)
       ORDER BY w.i`);
    return result.rows.map((r) => r.stems);
  }

  async hasChunks(sparkId: string): Promise<boolean> {
    // One index probe, not a count of every chunk of the Spark.
    const r = await this.db.execute<{ found: boolean }>(
      sql`SELECT EXISTS (SELECT 1 FROM document_chunks WHERE spark_id = ${sparkId}) AS found`,
    );
    return r.rows[0]?.found === true;
  }

  async chunkSignature(sparkId: string, upTo: number): Promise<{ count: number; signature: string | null }> {
    // One index-only look: how many chunks, which ones, and when its documents last changed.
    const probe = await this.db.execute<{ n: number; signature: string | null }>(sql`
      WITH ids AS (SELECT id FROM document_chunks WHERE spark_id = ${sparkId} ORDER BY id LIMIT ${upTo})
      SELECT (SELECT count(*) FROM ids)::int AS n,
             (SELECT md5(string_agg(id::text, ',' ORDER BY id)) FROM ids)
               || coalesce((SELECT max(updated_at)::text FROM documents WHERE spark_id = ${sparkId}), '') AS signature`);
    const { n, signature } = probe.rows[0] ?? { n: 0, signature: null };
    return { count: n, signature };
  }

  async sparkChunks(sparkId: string): Promise<ChunkRecord[]> {
    const rows = await this.db.execute<ChunkRow>(sql`
      SELECT c.id, c.document_id, d.name, d.title, c.page, c.content, c.config, c.facts, d.origin
        FROM document_chunks c JOIN documents d ON d.id = c.document_id
       WHERE c.spark_id = ${sparkId} ORDER BY c.id`);
    return rows.rows.map(chunkRecord);
  }

  async factChunks(sparkId: string, limit: number): Promise<ChunkRecord[]> {
    const rows = await this.db.execute<ChunkRow>(sql`
      SELECT c.id, c.document_id, d.name, d.title, c.page, c.content, c.config, c.facts, d.origin
        FROM (SELECT f.id FROM document_chunks f
               WHERE f.spark_id = ${sparkId} AND f.facts IS NOT NULL ORDER BY f.id LIMIT ${limit}) x
        JOIN document_chunks c ON c.id = x.id JOIN documents d ON d.id = c.document_id`);
    return rows.rows.map(chunkRecord);
  }

  /**
   * One round trip: the question's terms in both languages, and which of the Spark's first chunks
   * hold each of them (and every word of the question).
   */
  async sampleTerms(q: TermSample): Promise<SampledTerm[]> {
    // Each term's tsquery, as the engine's termQuery() writes it; parsed once, not once per sampled chunk.
    const operand = sql.raw(
      `((CASE WHEN t.prefix IS NULL THEN '''' || replace(replace(t.lexeme, '\\', '\\\\'), '''', '''''') || ''''
           ELSE '''' || replace(replace(t.prefix, '\\', '\\\\'), '''', '''''') || ''':*' END)
       || coalesce(alts.j -> t.cfg ->> t.lexeme, ''))::tsquery`,
    );
    const result = await this.db.execute<SampledTerm>(sql`
    WITH sample AS MATERIALIZED (
      SELECT (row_number() OVER ())::int - 1 AS i, s.id, s.tsv
        FROM (SELECT c.id, c.tsv FROM document_chunks c WHERE c.spark_id = ${q.sparkId}
               ORDER BY c.id LIMIT ${sql.raw(String(q.sampleSize))}) s
    ), q AS (
      SELECT cfg, websearch_to_tsquery(cfg::regconfig, ${q.question}) AS strict,
             tsvector_to_array(to_tsvector(cfg::regconfig, ${q.question})) AS lexemes
        FROM unnest(ARRAY['spanish', 'english']) cfg
    ), p AS (
      SELECT q.cfg, u.lexeme, u.n,
             CASE WHEN length(u.lexeme) >= 3 THEN left(u.lexeme, greatest(3, length(u.lexeme) - 2)) END AS prefix
        FROM q, unnest(q.lexemes) WITH ORDINALITY AS u(lexeme, n)
    ), alts AS (SELECT ${JSON.stringify(q.alts)}::jsonb AS j
    ), t AS MATERIALIZED (SELECT t.*, ${operand} AS query FROM p AS t, alts)
    SELECT t.cfg AS config, t.lexeme, t.prefix,
           ARRAY(SELECT s.i FROM sample s WHERE s.tsv @@ t.query ORDER BY s.i) AS hits, NULL::uuid[] AS ids
      FROM t
    UNION ALL
    SELECT q.cfg, NULL, NULL, ARRAY(SELECT s.i FROM sample s WHERE s.tsv @@ q.strict ORDER BY s.i), NULL FROM q
    UNION ALL
    SELECT NULL, NULL, NULL, NULL, ARRAY(SELECT s.id FROM sample s ORDER BY s.i)`);
    return result.rows;
  }

  /**
   * The passages of a search, in one statement: per language, the tiers in order, each ranking at most
   * `candidates` chunks, under a LIMIT (PostgreSQL stops at the first tiers that give `limit`); the second
   * language's rows only when the first found nothing that covers the question.
   */
  async findPassages(q: PassageSearch): Promise<FoundPassage[]> {
    const covering = (lang: number) =>
      sql.raw(`SELECT 1 FROM found${lang} WHERE matched * ${q.floor} >= ${q.languages[lang].termQueries.length}`);
    const found = q.languages.map(
      (s, lang) => sql`${sql.raw(`found${lang}`)} AS MATERIALIZED (${languageQuery(q, s, lang)})`,
    );
    const chosen =
      q.languages.length === 1
        ? sql`SELECT * FROM found0`
        : sql`SELECT * FROM found0 WHERE EXISTS (${covering(0)})
            UNION ALL SELECT * FROM found1 WHERE NOT EXISTS (${covering(0)}) AND EXISTS (${covering(1)})
            UNION ALL SELECT * FROM found0 WHERE NOT EXISTS (${covering(0)}) AND NOT EXISTS (${covering(1)})`;
    const result = await this.db.execute<PassageRow>(sql`
    WITH ${sql.join(found, sql`, `)}, h AS (${chosen})
    SELECT h.id AS chunk_id, c.document_id, d.name AS document_name, d.title AS document_title, c.page, c.content,
           h.rank, h.matched, h.strict, h.lang, d.origin, c.config, c.facts
      FROM h JOIN document_chunks c ON c.id = h.id JOIN documents d ON d.id = c.document_id
     ORDER BY h.strict DESC, h.matched DESC, h.rank DESC, h.id`);
    return result.rows.map((r) => ({
      chunkId: r.chunk_id,
      documentId: r.document_id,
      documentName: documentTitle({ name: r.document_name, title: r.document_title, origin: r.origin }),
      page: r.page,
      content: r.content,
      rank: r.rank,
      matched: r.matched,
      strict: r.strict,
      lang: r.lang,
      origin: r.origin,
      config: r.config,
      facts: r.facts,
    }));
  }
}

/**
 * The statement that finds and ranks the passages of one language (`lang`: its place in the search order):
 * the tiers in order, each ranking at most `candidates` chunks, the first `limit` rows kept. The tiers come in
 * one UNION ALL under a LIMIT, so PostgreSQL stops at the first tiers that give `limit`.
 */
function languageQuery(q: PassageSearch, s: LanguageSearch, lang: number): SQL {
  const strict = sql`websearch_to_tsquery(${s.config}::regconfig, ${q.question})`;
  const cap = sql.raw(String(q.candidates));
  const limit = sql.raw(String(q.limit));
  const parts = s.tiers.map((tier) => {
    let candidates: SQL;
    if (tier.from === 'sample') {
      // The sample already sorted these chunks into this tier; the oldest candidates are ranked.
      candidates = sql`SELECT c.id, c.tsv FROM document_chunks c
         WHERE c.spark_id = ${q.sparkId} AND c.id = ANY(${sql.param(tier.ids)}::uuid[]) ORDER BY c.id LIMIT ${cap}`;
    } else if (tier.from === 'strict') {
      candidates = sql`SELECT c.id, c.tsv FROM document_chunks c
         WHERE c.spark_id = ${q.sparkId} AND c.tsv @@ ${strict} LIMIT ${cap}`;
    } else {
      // A chunk belongs to one tier only: not strict, and not holding one more of the terms.
      const notAbove = tier.notAbove !== undefined ? sql` AND NOT c.tsv @@ ${tier.notAbove}::tsquery` : sql``;
      // The index's keys are shorter than some prefixes: those are checked on tsv.
      const recheck = tier.recheck !== undefined ? sql` AND c.tsv @@ ${tier.recheck}::tsquery` : sql``;
      candidates = sql`SELECT c.id, c.tsv FROM document_chunks c
         WHERE c.spark_id = ${q.sparkId} AND chunk_prefixes(c.tsv) @@ ${tier.indexQuery}::tsquery${recheck}
           AND NOT c.tsv @@ ${strict}${notAbove} LIMIT ${cap}`;
    }
    return sql`(SELECT x.id, x.tsv FROM (${candidates}) x
      ORDER BY ts_rank_cd(x.tsv, ${s.loose}::tsquery) DESC, x.id LIMIT ${limit})`;
  });
  return sql`SELECT h.id, ${sql.raw(String(lang))} AS lang,
         ts_rank_cd(h.tsv, ${s.loose}::tsquery) AS rank,
         (h.tsv @@ ${strict}) AS strict,
         (SELECT count(*) FROM unnest(${sql.param(s.termQueries)}::text[]) tq
           WHERE h.tsv @@ tq::tsquery)::int AS matched,
         ${s.loose}::tsquery AS loose
    FROM (SELECT * FROM (${sql.join(parts, sql`\nUNION ALL\n`)}) t LIMIT ${limit}) h`;
}
