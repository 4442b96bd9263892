CREATE TYPE "public"."test_verdict" AS ENUM('satisfactory', 'unsatisfactory');--> statement-breakpoint
CREATE TABLE "analytics_conversations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"conversation_id" uuid,
	"spark_id" uuid NOT NULL,
	"kind" "conversation_kind" NOT NULL,
	"origin" text,
	"started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_quarters" (
	"spark_id" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"questions" integer DEFAULT 0 NOT NULL,
	"answers" integer DEFAULT 0 NOT NULL,
	"not_covered" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_quarters_spark_id_bucket_pk" PRIMARY KEY("spark_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "analytics_questions" (
	"message_id" uuid PRIMARY KEY NOT NULL,
	"spark_id" uuid NOT NULL,
	"asked_at" timestamp with time zone NOT NULL,
	"content" text NOT NULL,
	"group_key" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "weekly_digest" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "digest_sent_on" date;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "verdict" "test_verdict";--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "judged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "analytics_conversations" ADD CONSTRAINT "analytics_conversations_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_conversations" ADD CONSTRAINT "analytics_conversations_spark_id_sparks_id_fk" FOREIGN KEY ("spark_id") REFERENCES "public"."sparks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_quarters" ADD CONSTRAINT "analytics_quarters_spark_id_sparks_id_fk" FOREIGN KEY ("spark_id") REFERENCES "public"."sparks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_questions" ADD CONSTRAINT "analytics_questions_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_questions" ADD CONSTRAINT "analytics_questions_spark_id_sparks_id_fk" FOREIGN KEY ("spark_id") REFERENCES "public"."sparks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_conversations_conversation_key" ON "analytics_conversations" USING btree ("conversation_id");--> statement-breakpoint
-- Covering indexes (schema analytics.ts): a period's rows are read from the index alone.
CREATE INDEX "analytics_conversations_spark_idx" ON "analytics_conversations" USING btree ("spark_id","started_at")
  INCLUDE ("kind", "origin");--> statement-breakpoint
CREATE INDEX "analytics_questions_spark_idx" ON "analytics_questions" USING btree ("spark_id","asked_at")
  INCLUDE ("group_key");--> statement-breakpoint
CREATE INDEX "analytics_questions_key_idx" ON "analytics_questions" USING btree ("spark_id","group_key","asked_at")
  INCLUDE ("content");
--> statement-breakpoint
-- Analytics' rollup (issue 35 item 4; schema analytics.ts), kept by the database from every statement that writes,
-- changes or removes messages of tests' and website visitors' conversations: a Spark's questions, answers and
-- not-covered answers per quarter hour, each conversation from its first question, and each question with its group
-- key. What counts is what AnalyticsRepository documents: a question is a human message but the start keyword the app
-- sends to open a test chat (isStartKeyword of @sparks/contracts); an answer is an ai message whose `answer` is one of
-- RATEABLE_ANSWER_KINDS (@sparks/contracts): keep both in step.
CREATE FUNCTION analytics_is_question(content text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT NOT (lower(btrim(content)) ~ '^(inicio|inicio en [[:alpha:]-]+|start in [[:alpha:]-]+)$')
$$;--> statement-breakpoint
-- One function for the three triggers: what a statement removed (deleted rows, or the old version of updated ones) is
-- taken off, then what it added (inserted rows, or the new version) is counted. Messages removed with their
-- conversation (a visitor's deleted, the retention sweep) leave the counts as they are: only the words go.
CREATE FUNCTION analytics_messages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE analytics_quarters q
       SET questions = q.questions - r.questions, answers = q.answers - r.answers,
           not_covered = q.not_covered - r.not_covered
      FROM (SELECT c.spark_id, date_bin('15 minutes', m.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS bucket, count(*) FILTER (WHERE m.type = 'human' AND analytics_is_question(m.data->>'content')) AS questions, count(*) FILTER (WHERE m.type = 'ai' AND m.data->>'answer' IN ('answer', 'notCovered')) AS answers, count(*) FILTER (WHERE m.type = 'ai' AND m.data->>'answer' = 'notCovered') AS not_covered
              FROM removed m
              JOIN conversations c ON c.id = m.conversation_id
             WHERE c.kind IN ('test', 'widget') AND c.spark_id IS NOT NULL AND m.type IN ('human', 'ai')
             GROUP BY 1, 2) r
     WHERE q.spark_id = r.spark_id AND q.bucket = r.bucket;
    -- A conversation that lost a question begins at its first question left, or is no conversation any more.
    WITH touched AS (
      SELECT DISTINCT m.conversation_id FROM removed m JOIN conversations c ON c.id = m.conversation_id
       WHERE m.type = 'human'
    ), firsts AS (
      SELECT t.conversation_id, min(m.created_at) FILTER (WHERE m.type = 'human' AND analytics_is_question(m.data->>'content')) AS first
        FROM touched t LEFT JOIN messages m ON m.conversation_id = t.conversation_id
       GROUP BY 1
    ), gone AS (
      DELETE FROM analytics_conversations a USING firsts f
       WHERE a.conversation_id = f.conversation_id AND f.first IS NULL
    )
    UPDATE analytics_conversations a SET started_at = f.first
      FROM firsts f
     WHERE a.conversation_id = f.conversation_id AND f.first IS NOT NULL;
    DELETE FROM analytics_questions WHERE message_id IN (SELECT id FROM removed);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO analytics_quarters AS q (spark_id, bucket, questions, answers, not_covered)
    SELECT c.spark_id, date_bin('15 minutes', m.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), count(*) FILTER (WHERE m.type = 'human' AND analytics_is_question(m.data->>'content')), count(*) FILTER (WHERE m.type = 'ai' AND m.data->>'answer' IN ('answer', 'notCovered')), count(*) FILTER (WHERE m.type = 'ai' AND m.data->>'answer' = 'notCovered')
      FROM added m
      JOIN conversations c ON c.id = m.conversation_id
     WHERE c.kind IN ('test', 'widget') AND c.spark_id IS NOT NULL AND m.type IN ('human', 'ai')
     GROUP BY 1, 2
    HAVING count(*) FILTER (WHERE m.type = 'human' AND analytics_is_question(m.data->>'content')) > 0 OR count(*) FILTER (WHERE m.type = 'ai' AND m.data->>'answer' IN ('answer', 'notCovered')) > 0
    ON CONFLICT (spark_id, bucket) DO UPDATE
       SET questions = q.questions + excluded.questions, answers = q.answers + excluded.answers,
           not_covered = q.not_covered + excluded.not_covered;
    INSERT INTO analytics_conversations AS a (id, conversation_id, spark_id, kind, origin, started_at)
    SELECT gen_random_uuid(), m.conversation_id, c.spark_id, c.kind, vc.origin, min(m.created_at)
      FROM added m
      JOIN conversations c ON c.id = m.conversation_id
      LEFT JOIN visitor_conversations vc ON vc.conversation_id = m.conversation_id
     WHERE c.kind IN ('test', 'widget') AND c.spark_id IS NOT NULL AND m.type = 'human' AND analytics_is_question(m.data->>'content')
     GROUP BY m.conversation_id, c.spark_id, c.kind, vc.origin
    ON CONFLICT (conversation_id) DO UPDATE SET started_at = least(a.started_at, excluded.started_at);
    INSERT INTO analytics_questions (message_id, spark_id, asked_at, content, group_key)
    SELECT m.id, c.spark_id, m.created_at, btrim(m.data->>'content'),
           question_group_key(CASE WHEN s.options->>'language' = 'es' THEN 'es' ELSE 'en' END, btrim(m.data->>'content'))
      FROM added m
      JOIN conversations c ON c.id = m.conversation_id
      JOIN sparks s ON s.id = c.spark_id
     WHERE c.kind IN ('test', 'widget') AND m.type = 'human' AND analytics_is_question(m.data->>'content') AND btrim(m.data->>'content') <> ''
    ON CONFLICT (message_id) DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER analytics_messages_added AFTER INSERT ON messages REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_messages_changed();--> statement-breakpoint
CREATE TRIGGER analytics_messages_updated AFTER UPDATE ON messages REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_messages_changed();--> statement-breakpoint
CREATE TRIGGER analytics_messages_removed AFTER DELETE ON messages REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_messages_changed();--> statement-breakpoint
-- Backfill: the messages already there, counted as the trigger counts them.
INSERT INTO analytics_quarters AS q (spark_id, bucket, questions, answers, not_covered)
    SELECT c.spark_id, date_bin('15 minutes', m.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), count(*) FILTER (WHERE m.type = 'human' AND analytics_is_question(m.data->>'content')), count(*) FILTER (WHERE m.type = 'ai' AND m.data->>'answer' IN ('answer', 'notCovered')), count(*) FILTER (WHERE m.type = 'ai' AND m.data->>'answer' = 'notCovered')
      FROM messages m
      JOIN conversations c ON c.id = m.conversation_id
     WHERE c.kind IN ('test', 'widget') AND c.spark_id IS NOT NULL AND m.type IN ('human', 'ai')
     GROUP BY 1, 2
    HAVING count(*) FILTER (WHERE m.type = 'human' AND analytics_is_question(m.data->>'content')) > 0 OR count(*) FILTER (WHERE m.type = 'ai' AND m.data->>'answer' IN ('answer', 'notCovered')) > 0
    ON CONFLICT (spark_id, bucket) DO UPDATE
       SET questions = q.questions + excluded.questions, answers = q.answers + excluded.answers,
           not_covered = q.not_covered + excluded.not_covered;--> statement-breakpoint
INSERT INTO analytics_conversations AS a (id, conversation_id, spark_id, kind, origin, started_at)
    SELECT gen_random_uuid(), m.conversation_id, c.spark_id, c.kind, vc.origin, min(m.created_at)
      FROM messages m
      JOIN conversations c ON c.id = m.conversation_id
      LEFT JOIN visitor_conversations vc ON vc.conversation_id = m.conversation_id
     WHERE c.kind IN ('test', 'widget') AND c.spark_id IS NOT NULL AND m.type = 'human' AND analytics_is_question(m.data->>'content')
     GROUP BY m.conversation_id, c.spark_id, c.kind, vc.origin
    ON CONFLICT (conversation_id) DO UPDATE SET started_at = least(a.started_at, excluded.started_at);--> statement-breakpoint
INSERT INTO analytics_questions (message_id, spark_id, asked_at, content, group_key)
    SELECT m.id, c.spark_id, m.created_at, btrim(m.data->>'content'),
           question_group_key(CASE WHEN s.options->>'language' = 'es' THEN 'es' ELSE 'en' END, btrim(m.data->>'content'))
      FROM messages m
      JOIN conversations c ON c.id = m.conversation_id
      JOIN sparks s ON s.id = c.spark_id
     WHERE c.kind IN ('test', 'widget') AND m.type = 'human' AND analytics_is_question(m.data->>'content') AND btrim(m.data->>'content') <> ''
    ON CONFLICT (message_id) DO NOTHING;
