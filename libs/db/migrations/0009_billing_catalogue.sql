-- The catalogue of issue 15 (decisions in docs/decisions.md, 2026-11-24 "Plans, packs and zaphire").
INSERT INTO "plans" ("slug", "product_id", "price_id", "product_name", "unit_amount", "currency", "limit_interactions", "limit_deployments", "limit_sparks", "limit_documents", "document_sharing", "overage_unit_amount", "purchasable", "sort_order") VALUES
  ('free', 'prod_free', 'price_free', 'Free Plan', 0, 'eur', 100, 0, 5, 10, false, 0, false, 0),
  ('ruby', 'prod_ruby', 'price_ruby_month', 'Ruby', 4500, 'eur', 600, 1, 5, 10, false, 12, true, 1),
  ('emeral', 'prod_emeral', 'price_emeral_month', 'Emerald', 9000, 'eur', 1500, 3, 10, 20, false, 10, true, 2),
  ('zaphire', 'prod_zaphire', 'price_zaphire_month', 'Zaphire', 18000, 'eur', 4000, 10, 20, 50, true, 8, true, 3)
ON CONFLICT ("slug") DO NOTHING;
--> statement-breakpoint
INSERT INTO "credit_packs" ("product_id", "price_id", "name", "interactions", "unit_amount", "currency") VALUES
  ('prod_itx_100', 'price_itx_100', '100 ITx', 100, 1000, 'usd'),
  ('prod_itx_250', 'price_itx_250', '250 ITx', 250, 2250, 'usd'),
  ('prod_itx_500', 'price_itx_500', '500 ITx', 500, 4000, 'usd'),
  ('prod_itx_1000', 'price_itx_1000', '1,000 ITx', 1000, 7000, 'usd'),
  ('prod_itx_2500', 'price_itx_2500', '2,500 ITx', 2500, 15000, 'usd')
ON CONFLICT ("product_id") DO NOTHING;
