CREATE TYPE "public"."usage_source" AS ENUM('plan', 'credits', 'overage');--> statement-breakpoint
CREATE TABLE "billing_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"price_id" text NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"fulfilled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_packs" (
	"product_id" text PRIMARY KEY NOT NULL,
	"price_id" text NOT NULL,
	"name" text NOT NULL,
	"interactions" integer NOT NULL,
	"unit_amount" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"stripe_price_id" text
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"slug" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"price_id" text NOT NULL,
	"product_name" text NOT NULL,
	"unit_amount" integer NOT NULL,
	"currency" text DEFAULT 'eur' NOT NULL,
	"limit_interactions" integer NOT NULL,
	"limit_deployments" integer NOT NULL,
	"limit_sparks" integer NOT NULL,
	"limit_documents" integer NOT NULL,
	"document_sharing" boolean DEFAULT false NOT NULL,
	"overage_unit_amount" integer DEFAULT 0 NOT NULL,
	"purchasable" boolean DEFAULT true NOT NULL,
	"sort_order" integer NOT NULL,
	"stripe_price_id" text
);
--> statement-breakpoint
CREATE TABLE "tenant_billing" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"plan_slug" text DEFAULT 'free' NOT NULL,
	"subscription_status" text DEFAULT 'none' NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"overage_enabled" boolean DEFAULT false NOT NULL,
	"overage_cap_cents" integer DEFAULT 0 NOT NULL,
	"overage_used" integer DEFAULT 0 NOT NULL,
	"alerted_80_for" timestamp with time zone,
	"alerted_100_for" timestamp with time zone,
	"stripe_customer_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenant_credits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"product_id" text NOT NULL,
	"interactions" integer NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	"checkout_session_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenant_credits_used_range" CHECK ("tenant_credits"."used" >= 0 AND "tenant_credits"."used" <= "tenant_credits"."interactions")
);
--> statement-breakpoint
CREATE TABLE "usage_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"message_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"source" "usage_source" NOT NULL,
	"credit_id" uuid,
	"period_start" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_reservations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"source" "usage_source" NOT NULL,
	"credit_id" uuid,
	"message_id" uuid,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_billing" ADD CONSTRAINT "tenant_billing_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_credits" ADD CONSTRAINT "tenant_credits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_events" ADD CONSTRAINT "usage_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_reservations" ADD CONSTRAINT "usage_reservations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_reservations" ADD CONSTRAINT "usage_reservations_credit_id_tenant_credits_id_fk" FOREIGN KEY ("credit_id") REFERENCES "public"."tenant_credits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_sessions_tenant_idx" ON "checkout_sessions" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_packs_price_id_key" ON "credit_packs" USING btree ("price_id");--> statement-breakpoint
CREATE UNIQUE INDEX "plans_price_id_key" ON "plans" USING btree ("price_id");--> statement-breakpoint
CREATE UNIQUE INDEX "plans_product_id_key" ON "plans" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tenant_credits_session_key" ON "tenant_credits" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE INDEX "tenant_credits_tenant_idx" ON "tenant_credits" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "usage_events_message_key" ON "usage_events" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "usage_events_tenant_idx" ON "usage_events" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "usage_reservations_tenant_idx" ON "usage_reservations" USING btree ("tenant_id","source");--> statement-breakpoint
CREATE UNIQUE INDEX "usage_reservations_message_key" ON "usage_reservations" USING btree ("message_id");