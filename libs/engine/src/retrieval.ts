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
  prefixes: string[] | null;
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
           h.rank, h.matched, h.terms, h.strict,
           (SELECT array_agg(left(l, greatest(3, length(l) - 2))) FROM unnest(q.lexemes) l) AS prefixes
      FROM hits h JOIN documents d ON d.id = h.document_id, q
     ORDER BY h.strict DESC, h.matched DESC, h.rank DESC, h.id
     LIMIT ${k}`);
  return result.rows.map((r) => ({
    chunkId: r.chunk_id,
    documentId: r.document_id,
    documentName: r.document_name,
    page: Number(r.page),
    content: r.content,
    excerpt: sentencesAbout(r.content, r.prefixes ?? []) ?? r.excerpt,
    rank: Number(r.rank),
    matched: Number(r.matched),
    terms: Number(r.terms),
    strict: r.strict,
  }));
}

const fold = (w: string) =>
  w
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/**
 * The one or two whole sentences of a passage that hold most of the question's terms, in their
 * order, with those words in **bold**. Whole sentences keep facts such as "hasta las 14:00" intact.
 */
export function sentencesAbout(content: string, prefixes: string[], max = 2): string | undefined {
  if (prefixes.length === 0) return undefined;
  const folded = prefixes.map(fold);
  const sentences = content
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[¿¡"“(]?[\p{Lu}\d])/u)
    .filter((x) => x.trim());
  const hits = (sentence: string) => {
    const words = sentence.split(/[^\p{L}\p{N}]+/u).map(fold);
    return new Set(folded.filter((p) => words.some((w) => w.startsWith(p)))).size;
  };
  const scored = sentences.map((text, i) => ({ text, i, score: hits(text) })).filter((x) => x.score > 0);
  if (scored.length === 0) return undefined;
  const best = [...scored]
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, max)
    .sort((a, b) => a.i - b.i);
  const bold = (sentence: string) =>
    sentence.replace(/[\p{L}\p{N}]+/gu, (w) => (folded.some((p) => fold(w).startsWith(p)) ? `**${w}**` : w));
  return best.map((b) => bold(b.text.trim())).join(' … ');
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
