import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { BillingRepository, CheckoutRepository, StripeLinkRepository, systemClock, type Clock } from '@sparks/db';
import { createStripeClient, type Stripe } from '@sparks/nest';
import { CONFIG } from '../infra/tokens';
import { LocalPaymentProvider } from './local-payment.provider';
import { PAYMENT_PROVIDER, STRIPE } from './payment-provider';
import { StripePaymentProvider } from './stripe/stripe-payment.provider';
import { STRIPE_WEBHOOK, StripeWebhookController } from './stripe/stripe-webhook.controller';
import { StripeWebhookService } from './stripe/stripe-webhook.service';
import { BillingController } from './billing.controller';
import { BillingService } from './billing.service';
import { MeterService } from './meter.service';
import { CLOCK } from './tokens';
import { INTERACTION_METER } from '../chat/converse';

/**
 * Plans, credits, checkout (the local provider, or Stripe with STRIPE_SECRET_KEY) and the interaction meter. Global: any module (the test chat, the
 * website widget) injects `MeterService` without importing this one.
 */
@Global()
@Module({
  controllers: [BillingController, StripeWebhookController],
  providers: [
    { provide: CLOCK, useValue: { now: () => systemClock.now() } },
    { provide: STRIPE, inject: [CONFIG], useFactory: (config: AppConfig) => createStripeClient(config) },
    {
      provide: PAYMENT_PROVIDER,
      inject: [STRIPE, CheckoutRepository, StripeLinkRepository, CONFIG, CLOCK],
      useFactory: (
        stripe: Stripe | undefined,
        checkouts: CheckoutRepository,
        stripeLink: StripeLinkRepository,
        config: AppConfig,
        clock: Clock,
      ) =>
        stripe
          ? new StripePaymentProvider(stripe, checkouts, stripeLink, config, clock)
          : new LocalPaymentProvider(checkouts, config),
    },
    {
      provide: STRIPE_WEBHOOK,
      inject: [STRIPE, CheckoutRepository, BillingRepository, StripeLinkRepository, CONFIG, CLOCK],
      useFactory: (
        stripe: Stripe | undefined,
        checkouts: CheckoutRepository,
        billing: BillingRepository,
        stripeLink: StripeLinkRepository,
        config: AppConfig,
        clock: Clock,
      ) => (stripe ? new StripeWebhookService(stripe, checkouts, billing, stripeLink, config, clock) : undefined),
    },
    BillingService,
    MeterService,
    { provide: INTERACTION_METER, useExisting: MeterService },
  ],
  exports: [BillingService, MeterService, INTERACTION_METER, CLOCK, PAYMENT_PROVIDER],
})
export class BillingModule {}
