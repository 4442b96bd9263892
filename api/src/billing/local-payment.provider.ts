import type { AppConfig } from '@sparks/core';
import type { CheckoutRepository, TenantRow } from '@sparks/db';
import { randomUUID } from 'node:crypto';
import type { CheckoutItem, PaymentProvider } from './payment-provider';

/**
 * The embedded default: a checkout is a `cs_local_…` row and is paid on the app's own page,
 * clearly a test payment with no card data (`POST /billing/checkout/<id>/pay` runs the fulfilment).
 */
export class LocalPaymentProvider implements PaymentProvider {
  readonly name = 'local' as const;
  readonly chargesPacksAtOnce = true;

  constructor(
    private readonly checkouts: CheckoutRepository,
    private readonly config: AppConfig,
  ) {}

  async createCheckout(tenant: TenantRow, item: CheckoutItem): Promise<{ sessionId: string; sessionUrl: string }> {
    const id = `cs_local_${randomUUID().replace(/-/g, '')}`;
    const sessionUrl = `${this.config.APP_URL}/checkout/${id}`;
    await this.checkouts.createCheckout({
      id,
      tenantId: tenant.id,
      mode: item.mode,
      priceId: item.mode === 'subscription' ? item.plan.priceId : item.pack.priceId,
      provider: 'local',
      url: sessionUrl,
    });
    return { sessionId: id, sessionUrl };
  }

  /**
   * The test-payment provider has no portal of its own: the plan is managed on the app's billing
   * page (the billing assistant), so that is where the portal link leads.
   */
  portal(): Promise<{ url: string }> {
    return Promise.resolve({ url: `${this.config.APP_URL}/billing` });
  }

  /** Ends the plan at once (the free plan's terms, no renewal): the local provider's subscription is this row. */
  async cancelForDeletion(tenant: TenantRow): Promise<'local' | null> {
    if (!tenant.subscriptionId) return null;
    return (await this.checkouts.endSubscription(tenant.id, new Date(), tenant.subscriptionId)) ? 'local' : null;
  }
}
