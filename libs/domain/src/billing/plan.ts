/**
 * The catalogue's plan every new tenant starts on (the 15-day trial, `TRIAL_DAYS`), seeded by migration 0009: its
 * slug, and its product name — the schema's default for `tenants.product_name` and a key of the data the assistants
 * translate ("Free Plan" is shown as "Plan gratuito" in Spanish). Changing either needs a migration.
 */
export const FREE_PLAN_SLUG = 'free';
export const FREE_PLAN_NAME = 'Free Plan';
