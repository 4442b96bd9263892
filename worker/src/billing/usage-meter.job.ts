import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { StripeLinkRepository, type Clock } from '@sparks/db';
import type { Stripe } from '@sparks/nest';
import type { JobPayloads } from '@sparks/queues';
import { CLOCK, CONFIG, STRIPE } from '@sparks/nest';

/**
 * `usage.meter` (the `usage` queue, only with Stripe configured): reports one overage interaction
 * to Stripe as a billing meter event whose identifier is the usage event's id, so a retried job
 * (Stripe answered but the worker died before noting it) is counted once by Stripe too. The plan's
 * metered overage price, on the same meter, turns the events into the next invoice's line.
 */
@Injectable()
export class UsageMeterJob {
  private readonly logger = new Logger(UsageMeterJob.name);

  constructor(
    private readonly stripeLink: StripeLinkRepository,
    @Inject(STRIPE) private readonly stripe: Stripe | undefined,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async handle(payload: JobPayloads['usage.meter']): Promise<void> {
    if (!this.stripe) return;
    const event = await this.stripeLink.usageEventById(payload.usageEventId);
    if (!event || event.source !== 'overage' || event.meterReportedAt) return;
    if (!event.stripeCustomerId) {
      this.logger.warn(`overage interaction ${event.id} has no Stripe customer: not reported`);
      return;
    }
    await this.stripe.billing.meterEvents.create(
      {
        event_name: this.config.STRIPE_METER_EVENT_NAME,
        identifier: event.id,
        timestamp: Math.floor(event.createdAt.getTime() / 1000),
        payload: { stripe_customer_id: event.stripeCustomerId, value: '1' },
      },
      { idempotencyKey: `sparks-meter-event-${event.id}` },
    );
    await this.stripeLink.markMeterReported(event.id, this.clock.now());
  }
}
