import type { AppConfig } from '@sparks/core';
import Stripe from 'stripe';

/**
 * The official Stripe client for this process, or undefined when Stripe is not configured (the
 * embedded default: the local test-payment provider). `STRIPE_API_BASE` points it at another
 * address (the test suite's local Stripe server) through the client's own host/port/protocol options.
 */
export function createStripeClient(config: AppConfig): Stripe | undefined {
  if (!config.STRIPE_SECRET_KEY) return undefined;
  const base = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : undefined;
  return new Stripe(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Sparks' },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'http:' ? 80 : 443),
          protocol: base.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
}

export type { Stripe };
