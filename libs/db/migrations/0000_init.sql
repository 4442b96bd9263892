CREATE TYPE "public"."email_status" AS ENUM('pending', 'sent', 'error');--> statement-breakpoint
CREATE TYPE "public"."email_transport" AS ENUM('outbox', 'smtp');--> statement-breakpoint
CREATE TABLE "outbound_emails" (
	"id" uuid PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text,
	"html" text,
	"language" text DEFAULT 'en' NOT NULL,
	"status" "email_status" DEFAULT 'pending' NOT NULL,
	"transport" "email_transport",
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "outbound_emails_to_created_idx" ON "outbound_emails" USING btree ("to","created_at");