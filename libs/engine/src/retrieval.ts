import type { Database } from '@sparks/db';
import { sql } from 'drizzle-orm';

export type TextConfig = 'spanish' | 'english';
export const configFor = (language: 'es' | 'en'): TextConfig => (language === 'es' ? 'spanish' : 'english');

export interface Passage {
  chunkId: string;
  documentId: string;
  documentName: string;
  page: number;
  content: string;
  /** The best fragments of the chunk around the query's words, words in **bold**. */
  excerpt: string;
  rank: number;
  /** How many of the question's search terms the passage contains, out of `terms`. */
  matched: number;
  terms: number;
  /** Whether the passage contains every term (websearch_to_tsquery semantics). */
  strict: boolean;
}

type Row = {
  chunk_id: string;
  document_id: string;
  document_name: string;
  page: number;
  content: string;
  excerpt: string;
  rank: number;
  matched: number;
  terms: number;
  strict: boolean;
};

/**
 * Full-text retrieval over a Spark's chunks. Candidates match any of the question's terms, by
 * stem prefix (the stem less its last two letters) so that "hora" finds "horario" and "abrís" finds "abrimos" (GIN index); those that match all of them
 * (`websearch_to_tsquery`) rank first, then those that hold more of the terms, then by cover density.
 */
async function search(
  db: Database,
  sparkId: string,
  question: string,
  config: TextConfig,
  k: number,
): Promise<Passage[]> {
  const result = await db.execute<Row>(sql`
    WITH q AS (
      SELECT websearch_to_tsquery(${config}::regconfig, ${question}) AS strict,
             lexemes,
             CASE WHEN cardinality(lexemes) = 0 THEN NULL
                  ELSE to_tsquery('simple', array_to_string(ARRAY(
                    SELECT CASE WHEN length(l) >= 3 THEN quote_literal(left(l, greatest(3, length(l) - 2))) || ':*' ELSE quote_literal(l) END
                      FROM unnest(lexemes) l), ' | '))
             END AS loose
        FROM (SELECT tsvector_to_array(to_tsvector(${config}::regconfig, ${question})) AS lexemes) s
    ), hits AS (
      SELECT c.id, c.document_id, c.page, c.content, c.config, c.tsv,
             ts_rank_cd(c.tsv, q.loose) AS rank,
             (c.tsv @@ q.strict) AS strict,
             (SELECT count(*) FROM unnest(q.lexemes) ql
               WHERE EXISTS (SELECT 1 FROM unnest(tsvector_to_array(c.tsv)) cl
                              WHERE cl = ql OR (length(ql) >= 3 AND starts_with(cl, left(ql, greatest(3, length(ql) - 2))))))::int AS matched,
             cardinality(q.lexemes) AS terms,
             q.loose
        FROM document_chunks c, q
       WHERE c.spark_id = ${sparkId} AND q.loose IS NOT NULL AND c.tsv @@ q.loose
       ORDER BY (c.tsv @@ q.strict) DESC, ts_rank_cd(c.tsv, q.loose) DESC, c.id
       LIMIT ${k * 3}
    )
    SELECT h.id AS chunk_id, h.document_id, d.name AS document_name, h.page, h.content,
           ts_headline(h.config::regconfig, h.content, h.loose,
             'MaxFragments=2, MinWords=12, MaxWords=40, StartSel=**, StopSel=**, FragmentDelimiter=" … "') AS excerpt,
           h.rank, h.matched, h.terms, h.strict
      FROM hits h JOIN documents d ON d.id = h.document_id
     ORDER BY h.strict DESC, h.matched DESC, h.rank DESC, h.id
     LIMIT ${k}`);
  return result.rows.map((r) => ({
    chunkId: r.chunk_id,
    documentId: r.document_id,
    documentName: r.document_name,
    page: Number(r.page),
    content: r.content,
    excerpt: r.excerpt,
    rank: Number(r.rank),
    matched: Number(r.matched),
    terms: Number(r.terms),
    strict: r.strict,
  }));
}

/** Top-k passages in the Spark's language; documents in the other language are searched next. */
export async function retrieve(
  db: Database,
  params: { sparkId: string; question: string; language: 'es' | 'en'; k?: number },
): Promise<Passage[]> {
  const k = params.k ?? 4;
  const first = configFor(params.language);
  const hits = await search(db, params.sparkId, params.question, first, k);
  if (hits.length > 0 && hits[0].matched * 2 >= hits[0].terms) return hits;
  const other = await search(db, params.sparkId, params.question, first === 'spanish' ? 'english' : 'spanish', k);
  const best = (p: Passage[]) => (p[0] ? p[0].matched / Math.max(1, p[0].terms) : 0);
  return best(other) > best(hits) ? other : hits;
}
