import type { OverageView } from '@sparks/contracts';
import useSWR from 'swr';

import { useProfile } from '../../account/useProfile';
import { AVAILABLE_CREDITS_KEY, fetchAvailableCredits, fetchOverage, OVERAGE_KEY } from '../api';
import { heldPlan, outOfInteractions, overageHasRoom, planUsedUp, trialEnded } from '../billing';
import { billingDialogs, useBillingDialogs } from '../../account/billingDialogs';
import CreditPacksDialog from './CreditPacksDialog';
import OutOfInteractionsDialog from './OutOfInteractionsDialog';
import PlansDialog from './PlansDialog';
import TrialEndedDialog from './TrialEndedDialog';

export interface BillingDialogsProps {
  /** `?showPlans=true` is in the address. */
  showPlans: boolean;
  /** `?showCredits=true` (the billing assistant's "buy interactions" button). */
  showCredits: boolean;
  openPlans: () => void;
  closePlans: () => void;
  closeCredits: () => void;
}

/**
 * The account's billing dialogs, one at a time (docs/product.md §2, §4): the plans popup (`showPlans=true`), the trial-ended
 * popup (trial over with no plan, or a 402 TRIAL_ENDED), the credit-pack popup, and the out-of-interactions modal
 * (a paid plan used up, no credits left, no overage with room under its cap, no 402 yet; once per page load).
 */
export default function BillingDialogs({
  showPlans,
  showCredits,
  openPlans,
  closePlans,
  closeCredits,
}: BillingDialogsProps) {
  const { data: profile } = useProfile();
  const dialogs = useBillingDialogs();
  const usedUp = planUsedUp(profile);
  const { data: credits } = useSWR<number, Error>(usedUp ? AVAILABLE_CREDITS_KEY : null, fetchAvailableCredits);
  // With overage on and room under its cap, the Spark keeps answering: the owner is not out of interactions.
  const { data: overage, error: overageFailed } = useSWR<OverageView, Error>(usedUp ? OVERAGE_KEY : null, fetchOverage);
  const overageKnown = overage !== undefined || overageFailed !== undefined;
  const ended = trialEnded(profile) || (dialogs.open === 'trialEnded' && heldPlan(profile) === null);

  if (showPlans) return <PlansDialog onClose={closePlans} />;
  if (ended) return <TrialEndedDialog onViewPlans={openPlans} />;
  if (dialogs.open === 'credits' || showCredits)
    return (
      <CreditPacksDialog
        onClose={() => {
          billingDialogs.close();
          if (showCredits) closeCredits();
        }}
      />
    );
  if (
    !dialogs.outAnswered &&
    overageKnown &&
    !overageHasRoom(overage) &&
    outOfInteractions(profile, credits, dialogs.had402)
  ) {
    const tenant = profile?.tenants[0];
    return (
      <OutOfInteractionsDialog
        {...(tenant
          ? { plan: { name: tenant.subscription.productName, limit: tenant.subscription.limits.interactions.value } }
          : {})}
        onBuyMore={() => {
          billingDialogs.answerOut();
          billingDialogs.openCredits();
        }}
        onViewPlans={() => {
          billingDialogs.answerOut();
          openPlans();
        }}
        onClose={billingDialogs.answerOut}
      />
    );
  }
  return null;
}
