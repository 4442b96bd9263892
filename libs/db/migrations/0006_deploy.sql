CREATE TABLE "allowed_origins" (
	"id" uuid PRIMARY KEY NOT NULL,
	"spark_id" uuid NOT NULL,
	"origin" text NOT NULL,
	"source" text DEFAULT 'owner' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"spark_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"token_sealed" text NOT NULL,
	"token_prefix" text NOT NULL,
	"rotation" integer DEFAULT 0 NOT NULL,
	"channel" text DEFAULT 'widget' NOT NULL,
	"position" text DEFAULT 'right' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"first_seen_at" timestamp with time zone,
	"first_seen_origin" text
);
--> statement-breakpoint
CREATE TABLE "site_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"spark_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"key_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_origin" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitor_conversations" (
	"conversation_id" uuid PRIMARY KEY NOT NULL,
	"visitor_id" uuid NOT NULL,
	"spark_id" uuid NOT NULL,
	"origin" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"spark_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"contact_email" text,
	"contact_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "allowed_origins" ADD CONSTRAINT "allowed_origins_spark_id_sparks_id_fk" FOREIGN KEY ("spark_id") REFERENCES "public"."sparks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_spark_id_sparks_id_fk" FOREIGN KEY ("spark_id") REFERENCES "public"."sparks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_keys" ADD CONSTRAINT "site_keys_spark_id_sparks_id_fk" FOREIGN KEY ("spark_id") REFERENCES "public"."sparks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_keys" ADD CONSTRAINT "site_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_conversations" ADD CONSTRAINT "visitor_conversations_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_conversations" ADD CONSTRAINT "visitor_conversations_visitor_id_visitors_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."visitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_conversations" ADD CONSTRAINT "visitor_conversations_spark_id_sparks_id_fk" FOREIGN KEY ("spark_id") REFERENCES "public"."sparks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitors" ADD CONSTRAINT "visitors_spark_id_sparks_id_fk" FOREIGN KEY ("spark_id") REFERENCES "public"."sparks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "allowed_origins_spark_origin_key" ON "allowed_origins" USING btree ("spark_id","origin");--> statement-breakpoint
CREATE UNIQUE INDEX "deployments_spark_key" ON "deployments" USING btree ("spark_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deployments_token_hash_key" ON "deployments" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "deployments_user_idx" ON "deployments" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "site_keys_hash_key" ON "site_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "site_keys_spark_idx" ON "site_keys" USING btree ("spark_id");--> statement-breakpoint
CREATE INDEX "visitor_conversations_visitor_idx" ON "visitor_conversations" USING btree ("visitor_id","created_at");--> statement-breakpoint
CREATE INDEX "visitor_conversations_spark_idx" ON "visitor_conversations" USING btree ("spark_id","created_at");--> statement-breakpoint
CREATE INDEX "visitors_spark_idx" ON "visitors" USING btree ("spark_id");--> statement-breakpoint
-- The deploy token left the Spark's options for the deployments table (hashed); the old plain values go.
UPDATE "sparks" SET "options" = "options" - 'deployToken' WHERE "options" ? 'deployToken';
