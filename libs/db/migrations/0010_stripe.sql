ALTER TABLE "billing_events" ADD COLUMN "processed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "meter_reported_at" timestamp with time zone;