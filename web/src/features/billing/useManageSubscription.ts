import type { SubscriptionView } from '@sparks/contracts';
import { useCallback, useState } from 'react';
import useSWR from 'swr';

import { useNavigate } from '../../lib/router';
import { firstTenant } from '../account/profile';
import { useProfile } from '../account/useProfile';
import { fetchSubscriptions, openPortal, subscriptionsKey } from './api';
import { heldPlan } from './billing';
import { leaveTo } from './leave';

/**
 * What "manage the subscription" is for this user (docs/decisions.md, "Managing the subscription"): nothing without a
 * paid plan; Stripe's Customer Portal (change, cancel, payment method) when Stripe manages the subscription; with the
 * embedded test provider, which has no portal, changing the plan in the app's plans popup.
 */
export type ManageKind = 'portal' | 'plans' | null;

function manageKind(subscriptions: readonly SubscriptionView[] | undefined): ManageKind {
  const subscription = subscriptions?.[0];
  if (!subscription) return null;
  return subscription.provider === 'stripe' ? 'portal' : 'plans';
}

/**
 * The paid plan the user holds, if any, and its subscriptions as the api reports them (read only while a paid plan is
 * held): who manages it, Stripe or the embedded provider.
 */
export function useHeldSubscription() {
  const { data: profile } = useProfile();
  const customerId = firstTenant(profile)?.customerId;
  const plan = heldPlan(profile);
  const { data: subscriptions } = useSWR<SubscriptionView[], Error>(
    plan && customerId ? subscriptionsKey(customerId) : null,
    () => fetchSubscriptions(customerId!),
  );
  return { plan, customerId, subscriptions };
}

export function useManageSubscription() {
  const navigate = useNavigate();
  const { plan, customerId, subscriptions } = useHeldSubscription();
  const kind = plan !== null ? manageKind(subscriptions) : null;
  const [opening, setOpening] = useState(false);
  const [failed, setFailed] = useState(false);

  const open = useCallback(async () => {
    if (kind === 'plans') {
      void navigate('/billing?showPlans=true');
      return;
    }
    if (kind !== 'portal' || !customerId) return;
    setOpening(true);
    setFailed(false);
    try {
      const { sessionUrl } = await openPortal(customerId);
      leaveTo(sessionUrl);
    } catch (cause) {
      console.error('Failed to open the customer portal', cause);
      setFailed(true);
      setOpening(false);
    }
  }, [customerId, kind, navigate]);

  return { kind, open, opening, failed };
}
