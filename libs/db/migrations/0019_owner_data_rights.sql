CREATE TYPE "public"."account_export_status" AS ENUM('pending', 'ready', 'error');--> statement-breakpoint
CREATE TABLE "account_exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"status" "account_export_status" DEFAULT 'pending' NOT NULL,
	"storage_key" text,
	"size" bigint,
	"token_hash" text,
	"expires_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "account_purges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"identifiers" text[] NOT NULL,
	"storage_keys" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sparks" ADD COLUMN "visitor_retention_days" integer DEFAULT 90 NOT NULL;--> statement-breakpoint
ALTER TABLE "account_exports" ADD CONSTRAINT "account_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_exports_user_idx" ON "account_exports" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "account_exports_token_key" ON "account_exports" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "conversations_widget_updated_idx" ON "conversations" USING btree ("updated_at") WHERE "conversations"."kind" = 'widget';--> statement-breakpoint
ALTER TABLE "sparks" ADD CONSTRAINT "sparks_visitor_retention_range" CHECK ("sparks"."visitor_retention_days" BETWEEN 1 AND 730);