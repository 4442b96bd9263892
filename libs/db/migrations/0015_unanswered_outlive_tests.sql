ALTER TABLE "unanswered_questions" DROP CONSTRAINT "unanswered_questions_message_id_messages_id_fk";
--> statement-breakpoint
ALTER TABLE "unanswered_questions" ALTER COLUMN "message_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD CONSTRAINT "unanswered_questions_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;