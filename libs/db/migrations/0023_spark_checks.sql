CREATE TYPE "public"."check_origin" AS ENUM('rating', 'fix', 'owner');--> statement-breakpoint
CREATE TYPE "public"."check_status" AS ENUM('pending', 'same', 'changed');--> statement-breakpoint
CREATE TABLE "spark_checks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"spark_id" uuid NOT NULL,
	"question" text NOT NULL,
	"question_key" text NOT NULL,
	"expected" text NOT NULL,
	"origin" "check_origin" NOT NULL,
	"status" "check_status" DEFAULT 'pending' NOT NULL,
	"latest" text,
	"checked_at" timestamp with time zone,
	"announced" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "spark_checks" ADD CONSTRAINT "spark_checks_spark_id_sparks_id_fk" FOREIGN KEY ("spark_id") REFERENCES "public"."sparks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "spark_checks_question_key" ON "spark_checks" USING btree ("spark_id","question_key");