CREATE TABLE "integration_connections" (
	"id" uuid PRIMARY KEY NOT NULL,
	"spark_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"service" text NOT NULL,
	"access_token_sealed" text NOT NULL,
	"refresh_token_sealed" text,
	"expires_at" timestamp with time zone NOT NULL,
	"scopes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_drives" (
	"id" uuid PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL,
	"drive_id" text NOT NULL,
	"delta_link" text,
	"synced_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "integration_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL,
	"drive_id" text NOT NULL,
	"item_id" text NOT NULL,
	"e_tag" text,
	"path" text NOT NULL,
	"document_id" uuid,
	"skipped" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integration_connections" ADD CONSTRAINT "integration_connections_spark_id_sparks_id_fk" FOREIGN KEY ("spark_id") REFERENCES "public"."sparks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_connections" ADD CONSTRAINT "integration_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_drives" ADD CONSTRAINT "integration_drives_connection_id_integration_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."integration_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_items" ADD CONSTRAINT "integration_items_connection_id_integration_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."integration_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_items" ADD CONSTRAINT "integration_items_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_connections_spark_provider_key" ON "integration_connections" USING btree ("spark_id","provider");--> statement-breakpoint
CREATE INDEX "integration_connections_user_idx" ON "integration_connections" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "integration_drives_connection_drive_key" ON "integration_drives" USING btree ("connection_id","drive_id");--> statement-breakpoint
CREATE UNIQUE INDEX "integration_items_connection_item_key" ON "integration_items" USING btree ("connection_id","drive_id","item_id");