export const CLOCK = Symbol('CLOCK');
/** The Stripe client (`Stripe | undefined`: undefined when Stripe is not configured). */
export const STRIPE = Symbol('STRIPE');
