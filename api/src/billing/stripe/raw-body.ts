import type { Request } from 'express';

/** Where Stripe delivers its events (the api's prefix included). */
export const STRIPE_WEBHOOK_PATH = '/api/v1/billing/webhooks/stripe';

/** A request whose JSON body's bytes were kept (only Stripe's webhook: its signature covers them). */
export type RawBodyRequest = Request & { rawBody?: Buffer };
