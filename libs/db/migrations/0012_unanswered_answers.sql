CREATE TYPE "public"."document_origin" AS ENUM('file', 'owner');--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "origin" "document_origin" DEFAULT 'file' NOT NULL;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD COLUMN "group_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD COLUMN "document_id" uuid;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD CONSTRAINT "unanswered_questions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unanswered_spark_group_idx" ON "unanswered_questions" USING btree ("spark_id","group_key");--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- Similar unanswered questions share a key: accents folded, then the stems of the Spark's text-search
-- language (lower case, stop words out), sorted and without duplicates; only stop words: the question, trimmed.
CREATE FUNCTION question_group_key(lang text, q text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    nullif(array_to_string(tsvector_to_array(to_tsvector(
      (CASE lang WHEN 'es' THEN 'spanish' ELSE 'english' END)::regconfig, public.unaccent(q))), ' '), ''),
    lower(btrim(regexp_replace(q, '\s+', ' ', 'g'))))
$$;--> statement-breakpoint
UPDATE "unanswered_questions" SET "group_key" = question_group_key("language"::text, "question");
