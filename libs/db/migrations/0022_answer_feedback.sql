CREATE TYPE "public"."feedback_rater" AS ENUM('owner', 'visitor');--> statement-breakpoint
CREATE TYPE "public"."feedback_rating" AS ENUM('up', 'down');--> statement-breakpoint
CREATE TYPE "public"."review_reason" AS ENUM('notCovered', 'ratedDown');--> statement-breakpoint
CREATE TABLE "answer_feedback" (
	"id" uuid PRIMARY KEY NOT NULL,
	"spark_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"rater" "feedback_rater" NOT NULL,
	"rating" "feedback_rating" NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD COLUMN "reason" "review_reason" DEFAULT 'notCovered' NOT NULL;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD COLUMN "answer_given" text;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD COLUMN "sources" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD COLUMN "rated_by" "feedback_rater";--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD COLUMN "rated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD COLUMN "comment" text;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD COLUMN "dismissed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "answer_feedback" ADD CONSTRAINT "answer_feedback_spark_id_sparks_id_fk" FOREIGN KEY ("spark_id") REFERENCES "public"."sparks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_feedback" ADD CONSTRAINT "answer_feedback_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "answer_feedback_message_rater_key" ON "answer_feedback" USING btree ("message_id","rater");--> statement-breakpoint
CREATE INDEX "answer_feedback_spark_idx" ON "answer_feedback" USING btree ("spark_id","created_at");