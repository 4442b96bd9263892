-- The trial publishes (issue 31, docs/decisions.md 2026-11-28): the free plan allows one published Spark while the
-- trial runs (the api reads 0 once it has ended without a paid plan). Tenants on the free plan get it too.
UPDATE "plans" SET "limit_deployments" = 1 WHERE "slug" = 'free' AND "limit_deployments" = 0;
--> statement-breakpoint
UPDATE "tenants" SET "limit_deployments" = 1 WHERE "subscription_id" IS NULL AND "limit_deployments" = 0;
