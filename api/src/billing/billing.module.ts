import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { BillingRepository, systemClock, type Clock } from '@sparks/db';
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
      inject: [STRIPE, BillingRepository, CONFIG, CLOCK],
      useFactory: (stripe: Stripe | undefined, billing: BillingRepository, config: AppConfig, clock: Clock) =>
        stripe ? new StripePaymentProvider(stripe, billing, config, clock) : new LocalPaymentProvider(billing, config),
    },
    {
      provide: STRIPE_WEBHOOK,
      inject: [STRIPE, BillingRepository, CONFIG, CLOCK],
      useFactory: (stripe: Stripe | undefined, billing: BillingRepository, config: AppConfig, clock: Clock) =>
        stripe ? new StripeWebhookService(stripe, billing, config, clock) : undefined,
    },
    BillingService,
    MeterService,
    { provide: INTERACTION_METER, useExisting: MeterService },
  ],
  exports: [BillingService, MeterService, INTERACTION_METER, CLOCK, PAYMENT_PROVIDER],
})
export class BillingModule {}
