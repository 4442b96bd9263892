import { Inject, Injectable } from '@nestjs/common';
import {
  LANGUAGES,
  type CheckoutSessionView,
  type CreditItemView,
  type LocalizedNames,
  type OverageView,
  type PriceView,
  type SubscriptionView,
} from '@sparks/contracts';
import { BILLING_OBJECTIVES_KEY, BILLING_STEPS, DomainError } from '@sparks/core';
import {
  BillingRepository,
  CheckoutRepository,
  ObjectivesRepository,
  type Clock,
  type CheckoutSessionRow,
  type CreditPackRow,
  type PlanRow,
} from '@sparks/db';
import { CLOCK } from '@sparks/nest';
import { PAYMENT_PROVIDER, type CheckoutItem, type PaymentProvider } from './payment-provider';

function toPriceView(p: PlanRow): PriceView {
  return {
    priceId: p.priceId,
    productId: p.productId,
    unit_amount: p.unitAmount,
    currency: p.currency,
    interval: 'month',
    slug: p.slug,
    productName: p.productName,
    limits: {
      interactions: { value: p.limitInteractions },
      deployments: { value: p.limitDeployments },
      sparks: { value: p.limitSparks },
      documents: { value: p.limitDocuments },
    },
    documentSharing: p.documentSharing,
    overage_unit_amount: p.overageUnitAmount,
  };
}

/** How long a checkout can be paid after it was opened: 24 hours, as Stripe Checkout's sessions (its default). */
const CHECKOUT_TTL_MS = 24 * 3600 * 1000;

/** Against the wall clock, as the row's `created_at` (the billing clock is the trial's and the periods', moved in tests). */
const isExpired = (session: CheckoutSessionRow) => Date.now() - session.createdAt.getTime() > CHECKOUT_TTL_MS;

/** A pack's name in each language: the catalogue's translation, else its (English) name. */
/** A product's name in every language: its own for a language, else the one name (product names are data). */
function packNames(pack: Pick<CreditPackRow, 'name' | 'names'>): LocalizedNames {
  return Object.fromEntries(
    LANGUAGES.map((language) => [language, pack.names[language] ?? pack.name]),
  ) as LocalizedNames;
}

/**
 * Plans, credit packs, subscriptions and checkout (issue 15). Payment goes through the configured
 * `PaymentProvider`: Stripe Checkout with Stripe keys, else the local provider (the embedded
 * default), whose test-payment page runs the same `fulfil` as Stripe's webhook.
 */
@Injectable()
export class BillingService {
  constructor(
    private readonly billing: BillingRepository,
    private readonly checkouts: CheckoutRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly objectives: ObjectivesRepository,
  ) {}

  private async tenantOf(userId: string) {
    const tenant = await this.billing.firstTenantOf(userId);
    if (!tenant) throw DomainError.notFound();
    return tenant;
  }

  /** The caller's tenant when `customerId` is its own; 404 otherwise (no hint that it exists). */
  private async ownCustomer(userId: string, customerId: string) {
    const tenant = await this.tenantOf(userId);
    if (tenant.customerId !== customerId) throw DomainError.notFound();
    return tenant;
  }

  async prices(): Promise<PriceView[]> {
    return (await this.billing.plans()).filter((p) => p.purchasable).map(toPriceView);
  }

  async creditCatalog(): Promise<{ items: CreditItemView[] }> {
    const packs = await this.billing.creditPacks();
    return {
      items: packs.map((p) => ({
        _id: p.productId,
        productId: p.productId,
        priceId: p.priceId,
        name: p.name,
        names: packNames(p),
        unit_amount: p.unitAmount,
        currency: p.currency,
        limits: { interactions: { value: p.interactions } },
      })),
    };
  }

  async subscriptions(userId: string, customerId: string): Promise<SubscriptionView[]> {
    const tenant = await this.ownCustomer(userId, customerId);
    const state = await this.billing.state(tenant.id, this.clock.now());
    if (!state || !state.tenant.subscriptionId) return [];
    return [
      {
        subscriptionId: state.tenant.subscriptionId,
        customerId: tenant.customerId,
        productName: state.plan.productName,
        slug: state.plan.slug,
        priceId: state.plan.priceId,
        status: state.billing.subscriptionStatus,
        currentPeriodStart: state.billing.periodStart.toISOString(),
        currentPeriodEnd: state.billing.periodEnd.toISOString(),
        provider: this.provider.name,
      },
    ];
  }

  async available(userId: string, feature: string): Promise<{ total: number }> {
    if (feature !== 'interactions') throw DomainError.notFound('FEATURE_NOT_METERED');
    const tenant = await this.tenantOf(userId);
    return { total: await this.billing.availableCredits(tenant.id) };
  }

  /** `POST /billing/customers/{customerId}/session`: a checkout for a plan or a pack of the catalogue. */
  async createSession(
    userId: string,
    customerId: string,
    mode: 'subscription' | 'payment',
    priceId: string,
    returnTo?: string,
  ): Promise<{ sessionUrl: string; sessionId: string }> {
    const tenant = await this.ownCustomer(userId, customerId);
    let item: CheckoutItem;
    if (mode === 'subscription') {
      const plan = await this.billing.planByPriceId(priceId);
      if (!plan || !plan.purchasable) throw DomainError.notFound();
      if (tenant.subscriptionId && tenant.productName === plan.productName) {
        throw DomainError.of('PLAN_ALREADY_HELD');
      }
      item = { mode, plan };
    } else {
      const pack = await this.billing.creditPackByPriceId(priceId);
      if (!pack) throw DomainError.notFound();
      item = { mode, pack };
    }
    const checkout = await this.provider.createCheckout(tenant, item, returnTo);
    // The billing assistant's "choose a plan" step: a plan's checkout was started (paying marks the next one).
    if (mode === 'subscription')
      await this.objectives.setStatus(userId, BILLING_OBJECTIVES_KEY, 'billing', BILLING_STEPS.choose, 'completed');
    return checkout;
  }

  /** `POST /billing/customers/{customerId}/portal`: where the customer changes or cancels the plan. */
  async portal(userId: string, customerId: string): Promise<{ sessionUrl: string }> {
    const tenant = await this.ownCustomer(userId, customerId);
    return { sessionUrl: (await this.provider.portal(tenant)).url };
  }

  /**
   * `POST /billing/credits/purchase`: with a paid plan the local provider holds the payment method
   * of that plan's checkout and charges the pack at once (`paid`); on the free plan, and always with
   * Stripe, the answer carries a checkout page to pay it (`open`, `sessionUrl`).
   */
  async purchaseCredits(
    userId: string,
    productId: string,
    returnTo?: string,
  ): Promise<{ success: boolean; status: 'paid' | 'open'; sessionUrl?: string }> {
    const tenant = await this.tenantOf(userId);
    const pack = await this.billing.creditPack(productId);
    if (!pack) throw DomainError.notFound();
    const { sessionUrl, sessionId } = await this.createSession(
      userId,
      tenant.customerId,
      'payment',
      pack.priceId,
      returnTo,
    );
    if (!tenant.subscriptionId || !this.provider.chargesPacksAtOnce)
      return { success: true, status: 'open', sessionUrl };
    await this.checkouts.fulfil(sessionId, this.clock.now());
    return { success: true, status: 'paid' };
  }

  private async ownSession(userId: string, sessionId: string): Promise<CheckoutSessionRow> {
    const tenant = await this.tenantOf(userId);
    const session = await this.checkouts.checkout(sessionId);
    if (!session || session.tenantId !== tenant.id) throw DomainError.notFound();
    return session;
  }

  async checkout(userId: string, sessionId: string): Promise<CheckoutSessionView> {
    const session = await this.ownSession(userId, sessionId);
    const plan = session.mode === 'subscription' ? await this.billing.planByPriceId(session.priceId) : undefined;
    const pack = session.mode === 'payment' ? await this.billing.creditPackByPriceId(session.priceId) : undefined;
    const expired = session.status === 'open' && isExpired(session);
    return {
      id: session.id,
      mode: session.mode as CheckoutSessionView['mode'],
      status: expired ? 'expired' : session.status,
      provider: session.provider,
      priceId: session.priceId,
      productName: plan?.productName ?? pack?.name ?? '',
      names: packNames(pack && !plan ? pack : { name: plan?.productName ?? '', names: {} }),
      unit_amount: plan?.unitAmount ?? pack?.unitAmount ?? 0,
      currency: plan?.currency ?? pack?.currency ?? 'eur',
      interactions: plan?.limitInteractions ?? pack?.interactions ?? null,
    };
  }

  /**
   * The local provider's "pay" button: the same fulfilment as a provider's webhook. Only while the local provider
   * is the one configured (a `cs_local_` session left open when Stripe was switched on pays nothing: 404), only
   * within `CHECKOUT_TTL_MS` of its creation, as Stripe's own sessions (409 CHECKOUT_EXPIRED), and never for the
   * plan already held (409 PLAN_ALREADY_HELD: a second session opened before the first was paid).
   */
  async payLocal(userId: string, sessionId: string): Promise<CheckoutSessionView> {
    const session = await this.ownSession(userId, sessionId);
    if (session.provider !== 'local' || this.provider.name !== 'local') throw DomainError.notFound();
    const now = this.clock.now();
    if (!session.fulfilledAt && session.status === 'open' && isExpired(session)) {
      throw DomainError.of('CHECKOUT_EXPIRED');
    }
    if ((await this.checkouts.fulfil(session.id, now)) === 'plan-held') throw DomainError.of('PLAN_ALREADY_HELD');
    return this.checkout(userId, sessionId);
  }

  async cancelLocal(userId: string, sessionId: string): Promise<CheckoutSessionView> {
    const session = await this.ownSession(userId, sessionId);
    await this.checkouts.cancelCheckout(session.id);
    return this.checkout(userId, sessionId);
  }

  /** The overage setting and this period's overage (GET /billing/overage). */
  async overage(userId: string): Promise<OverageView> {
    const tenant = await this.tenantOf(userId);
    return this.overageView(tenant.id);
  }

  private async overageView(tenantId: string): Promise<OverageView> {
    const state = await this.billing.state(tenantId, this.clock.now());
    if (!state) throw DomainError.notFound();
    const { tenant, billing, plan } = state;
    const unitAmount = tenant.subscriptionId ? (plan?.overageUnitAmount ?? 0) : 0;
    return {
      enabled: billing.overageEnabled,
      capCents: billing.overageCapCents,
      available: unitAmount > 0,
      unitAmount,
      currency: plan?.currency ?? 'eur',
      usedInteractions: billing.overageUsed,
      spentCents: billing.overageUsed * unitAmount,
      periodEnd: billing.periodEnd.toISOString(),
    };
  }

  /**
   * Turns overage on or off with its monthly cap (PUT /billing/overage). Turning it on needs a paid plan with a
   * premium rate (`OVERAGE_NEEDS_PLAN`) and a cap that pays for one interaction at least (`OVERAGE_CAP_TOO_LOW`);
   * turning it off is always allowed. The cap's range is the contract's (`OVERAGE_CAP_INVALID`).
   */
  async setOverage(userId: string, enabled: boolean, capCents: number): Promise<OverageView> {
    const tenant = await this.tenantOf(userId);
    const current = await this.overageView(tenant.id);
    if (enabled) {
      if (!current.available) throw DomainError.of('OVERAGE_NEEDS_PLAN');
      if (capCents < current.unitAmount) throw DomainError.invalid('OVERAGE_CAP_TOO_LOW', 'capCents');
    }
    await this.billing.setOverage(tenant.id, enabled, capCents);
    return { ...current, enabled, capCents };
  }
}
