import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { BillingRepository, CheckoutRepository, StripeLinkRepository, type Clock } from '@sparks/db';
import { CLOCK, CONFIG, STRIPE, type Stripe } from '@sparks/nest';
import { LocalPaymentProvider } from './local-payment.provider';
import { PAYMENT_PROVIDER } from './payment-provider';
import { StripePaymentProvider } from './stripe/stripe-payment.provider';
import { STRIPE_WEBHOOK, StripeWebhookController } from './stripe/stripe-webhook.controller';
import { StripeWebhookService } from './stripe/stripe-webhook.service';
import { BillingController } from './billing.controller';
import { BillingService } from './billing.service';
import { MeterService } from './meter.service';
import { INTERACTION_METER } from '../chat/converse';

/**
 * Plans, credits, checkout (the local provider, or Stripe with STRIPE_SECRET_KEY) and the interaction meter, on the
 * Stripe client (`STRIPE`) and the clock (`CLOCK`) of `InfraModule` (`@sparks/nest`). Global: any module (the test
 * chat, the website widget) injects `MeterService` without importing this one.
 */
@Global()
@Module({
  controllers: [BillingController, StripeWebhookController],
  providers: [
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
  exports: [BillingService, MeterService, INTERACTION_METER, PAYMENT_PROVIDER],
})
export class BillingModule {}
