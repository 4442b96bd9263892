ALTER TABLE "credit_packs" ADD COLUMN "names" jsonb DEFAULT '{}'::jsonb NOT NULL;
--> statement-breakpoint
-- The packs' names as each language writes them (docs/decisions.md, "Credit pack names in the user's language"):
-- Spanish writes 1000 without a thousands separator ("1,000" reads as one with three decimals).
UPDATE "credit_packs" SET "names" = v.names FROM (VALUES
  ('prod_itx_100', '{"en": "100 ITx", "es": "100 ITx"}'::jsonb),
  ('prod_itx_250', '{"en": "250 ITx", "es": "250 ITx"}'::jsonb),
  ('prod_itx_500', '{"en": "500 ITx", "es": "500 ITx"}'::jsonb),
  ('prod_itx_1000', '{"en": "1,000 ITx", "es": "1000 ITx"}'::jsonb),
  ('prod_itx_2500', '{"en": "2,500 ITx", "es": "2500 ITx"}'::jsonb)
) AS v(product_id, names)
WHERE "credit_packs"."product_id" = v.product_id AND "credit_packs"."names" = '{}'::jsonb;
