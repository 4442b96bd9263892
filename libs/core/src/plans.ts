/**
 * docs/product.md §9: every new tenant starts on the Free Plan with a 15-day trial. The plan itself (name, limits) is the
 * catalogue's `free` row in the database (`plans`), never a constant here.
 */
export const TRIAL_DAYS = 15;

/**
 * The billing assistant's objective steps (its flow in `libs/engine`), kept under the objectives key `billing`. Seeing
 * the plan is marked by the assistant; the others where they happen: a plan's checkout started, a plan paid, a pack
 * paid (the fulfilment that both payment providers share).
 */
export const BILLING_STEPS = {
  usage: 'billing.usage',
  choose: 'billing.choose',
  pay: 'billing.pay',
  credits: 'billing.credits',
} as const;
export const BILLING_OBJECTIVES_KEY = 'billing';
