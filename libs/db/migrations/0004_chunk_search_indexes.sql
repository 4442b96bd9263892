-- Retrieval in bounded time (docs/decisions.md). btree_gin lets a GIN index start with spark_id, so a
-- search reads only the Spark's entries. It ships with PostgreSQL (contrib, a trusted extension) and
-- with PGlite (scripts/start.mjs loads it).
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
-- Every beginning of 3 or more letters of every lexeme (and the lexemes shorter than that): the
-- prefix search 'hora':* becomes the exact key 'hora', which GIN can intersect without reading
-- every lexeme that starts with it. The high COST keeps the planner from computing it row by row
-- (in a filter) even without statistics, as on PGlite, where nothing runs ANALYZE.
CREATE FUNCTION chunk_prefixes(tsv tsvector) RETURNS tsvector
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 100000
  AS $$ SELECT array_to_tsvector(ARRAY(
           SELECT left(l, n) FROM unnest(tsvector_to_array(tsv)) AS l,
                  generate_series(least(3, length(l)), length(l)) AS n)) $$;--> statement-breakpoint
DROP INDEX "document_chunks_spark_idx";--> statement-breakpoint
DROP INDEX "document_chunks_tsv_idx";--> statement-breakpoint
CREATE INDEX "document_chunks_prefix_idx" ON "document_chunks" USING gin ("spark_id",chunk_prefixes("tsv"));--> statement-breakpoint
CREATE INDEX "document_chunks_spark_idx" ON "document_chunks" USING btree ("spark_id","id");--> statement-breakpoint
CREATE INDEX "document_chunks_tsv_idx" ON "document_chunks" USING gin ("spark_id","tsv");
