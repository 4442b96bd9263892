-- Cheaper writes of a document's chunks (issue 6, docs/decisions.md). chunk_prefixes now keeps the
-- word beginnings of 3 and 4 letters only (and the lexemes shorter than 3): about a quarter fewer
-- index keys. A longer stem prefix ('horari') is looked up by its first 4 letters ('hora') and
-- checked against tsv (libs/engine retrieval.ts). The SRF in the select list runs without the
-- per-lexeme function scan of the old form. An expression index must be rebuilt when its function
-- changes, hence the DROP and CREATE.
DROP INDEX "document_chunks_prefix_idx";--> statement-breakpoint
CREATE OR REPLACE FUNCTION chunk_prefixes(tsv tsvector) RETURNS tsvector
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 100000
  AS $$ SELECT array_to_tsvector(ARRAY(
           SELECT left(l, generate_series(least(3, length(l)), least(4, length(l))))
             FROM unnest(tsvector_to_array(tsv)) AS l)) $$;--> statement-breakpoint
CREATE INDEX "document_chunks_prefix_idx" ON "document_chunks" USING gin ("spark_id",chunk_prefixes("tsv"));
