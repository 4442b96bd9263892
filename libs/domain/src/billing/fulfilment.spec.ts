import { BILLING_STEPS } from '@sparks/core';
import { fulfilmentSteps, planFulfilment, subscriptionEnd, type PlanTerms } from './fulfilment';
import { FREE_PLAN_NAME, FREE_PLAN_SLUG } from './plan';

const ruby: PlanTerms = { slug: 'ruby', productName: 'Ruby', limitInteractions: 1000, limitDeployments: 3 };
const free: PlanTerms = {
  slug: FREE_PLAN_SLUG,
  productName: FREE_PLAN_NAME,
  limitInteractions: 100,
  limitDeployments: 1,
};
const now = new Date('2027-01-31T12:00:00Z');

describe('planFulfilment', () => {
  it('makes the plan the subscription: its name and limits, usage and overage from zero, a month from now', () => {
    expect(
      planFulfilment({
        tenant: { subscriptionId: null, productName: FREE_PLAN_NAME },
        plan: ruby,
        sessionId: 'cs_1',
        now,
      }),
    ).toEqual({
      held: false,
      tenant: {
        productName: 'Ruby',
        subscriptionId: 'sub_cs_1',
        limitInteractions: 1000,
        limitDeployments: 3,
        usageInteractions: 0,
      },
      billing: {
        planSlug: 'ruby',
        subscriptionStatus: 'active',
        periodStart: now,
        // 31 January + 1 month runs over into March (addMonth).
        periodEnd: new Date('2027-03-03T12:00:00Z'),
        overageUsed: 0,
        updatedAt: now,
      },
    });
  });

  it('takes the provider’s subscription id and period when given', () => {
    const period = { start: new Date('2027-01-31T11:59:00Z'), end: new Date('2027-02-28T11:59:00Z') };
    const change = planFulfilment({
      tenant: { subscriptionId: null, productName: FREE_PLAN_NAME },
      plan: ruby,
      sessionId: 'cs_1',
      subscriptionId: 'sub_stripe',
      period,
      now,
    });
    expect(change.held).toBe(false);
    if (change.held) return;
    expect(change.tenant.subscriptionId).toBe('sub_stripe');
    expect(change.billing).toMatchObject({ periodStart: period.start, periodEnd: period.end });
  });

  it('is held (nothing changes) when the tenant already has a subscription to that plan', () => {
    expect(
      planFulfilment({ tenant: { subscriptionId: 'sub_1', productName: 'Ruby' }, plan: ruby, sessionId: 'cs_2', now }),
    ).toEqual({ held: true });
  });

  it('replaces another paid plan, and the free plan’s name without a subscription is not held', () => {
    const emerald = { ...ruby, slug: 'emerald', productName: 'Emerald' };
    expect(
      planFulfilment({
        tenant: { subscriptionId: 'sub_1', productName: 'Ruby' },
        plan: emerald,
        sessionId: 'cs_3',
        now,
      }).held,
    ).toBe(false);
    expect(
      planFulfilment({ tenant: { subscriptionId: null, productName: 'Ruby' }, plan: ruby, sessionId: 'cs_4', now })
        .held,
    ).toBe(false);
  });
});

describe('fulfilmentSteps', () => {
  it('completes "choose" and "pay" for a plan, "credits" for a pack', () => {
    expect(fulfilmentSteps('subscription')).toEqual([BILLING_STEPS.choose, BILLING_STEPS.pay]);
    expect(fulfilmentSteps('payment')).toEqual([BILLING_STEPS.credits]);
  });
});

describe('subscriptionEnd', () => {
  it('goes back to the free plan, counted by the calendar month, usage kept', () => {
    const change = subscriptionEnd(free, new Date('2028-02-29T23:00:00Z'));
    expect(change).toEqual({
      tenant: { productName: FREE_PLAN_NAME, subscriptionId: null, limitInteractions: 100, limitDeployments: 1 },
      billing: {
        planSlug: FREE_PLAN_SLUG,
        subscriptionStatus: 'canceled',
        periodStart: new Date('2028-02-01T00:00:00Z'),
        periodEnd: new Date('2028-03-01T00:00:00Z'),
        updatedAt: new Date('2028-02-29T23:00:00Z'),
      },
    });
    expect(change.tenant).not.toHaveProperty('usageInteractions');
  });
});
