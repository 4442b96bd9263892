import type { UserProfile } from '@sparks/contracts';
import { useTranslation } from 'react-i18next';

import { useIsAdmin } from '../features/admin/api';
import { startLogout } from '../features/auth/startLogout';
import { billingState } from '../features/billing/billingMessage';
import { useManageSubscription } from '../features/billing/useManageSubscription';
import { USERNAME_CUT, displayName, planInfo } from '../features/account/profile';
import { useNavigate } from '../lib/router';
import { DropdownMenu } from '../ui/DropdownMenu';
import { LogoutIcon, UserIcon } from '../ui/icons';
import { NARROW_SIDEBAR_QUERY, useMediaQuery } from '../ui/useMediaQuery';

function initials(name: string): string {
  const letters = name
    .replace(/…$/, '')
    .split(/[\s@._-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0].toUpperCase())
    .join('');
  return letters || '?';
}

/**
 * The Profile dropdown of the sidebar's top bar (docs/product.md §2): the display name, the plan or the free-trial label,
 * for the free plan a start-plan button (billing with the plans open and a message to the billing assistant), for a
 * paid plan "Manage subscription" (Stripe's Customer Portal) or, with the embedded test provider, "Change plan",
 * modify profile, for admins the admin page, and log out.
 */
export function ProfileMenu({ profile }: { profile: UserProfile | undefined }) {
  const { t } = useTranslation('layout');
  const { t: tBilling } = useTranslation('billing');
  const navigate = useNavigate();
  const narrow = useMediaQuery(NARROW_SIDEBAR_QUERY);
  const name = profile ? displayName(profile, narrow ? USERNAME_CUT.narrow : USERNAME_CUT.wide) : '';
  const plan = planInfo(profile);
  const { admin } = useIsAdmin();
  const manage = useManageSubscription();
  const planLabel =
    plan.kind === 'free'
      ? plan.trialActive
        ? t('profile.freeTrial', { count: plan.daysLeft })
        : t('profile.trialEnded')
      : plan.kind === 'paid'
        ? plan.name
        : t('profile.planLoading');

  return (
    <DropdownMenu
      className="menu--profile"
      label={t('profile.button', { name: name || '…' })}
      buttonClassName="topbar-button topbar-button--profile"
      anchor="bottom end"
      namedByContent
      button={
        <>
          <span className="avatar" aria-hidden="true">
            {initials(name)}
          </span>
          <span className="visually-hidden">{t('profile.buttonHint')} </span>
          <span className="topbar-button__name">{name}</span>
        </>
      }
      header={
        <div className="profile-card">
          <span className="avatar avatar--large" aria-hidden="true">
            {initials(name)}
          </span>
          <span className="profile-card__text">
            <span className="profile-card__name" title={name}>
              {name}
            </span>
            <span className="profile-card__plan" data-testid="profile-plan">
              {planLabel}
            </span>
          </span>
        </div>
      }
      entries={[
        ...(plan.kind === 'free'
          ? [
              {
                key: 'start-plan',
                label: t('profile.startPlan'),
                tone: 'primary' as const,
                // docs/product.md §2: to billing, with the plans open, and a message to the billing assistant.
                onSelect: () =>
                  void navigate('/billing?showPlans=true', { state: billingState(tBilling('startPlanMessage')) }),
              },
            ]
          : []),
        // A paid plan: Stripe's Customer Portal, or with the embedded test provider the plans popup.
        ...(manage.kind
          ? [
              {
                key: 'manage-subscription',
                label: manage.kind === 'portal' ? t('profile.manageSubscription') : t('profile.changePlan'),
                disabled: manage.opening,
                onSelect: () => void manage.open(),
              },
            ]
          : []),
        { key: 'profile', label: t('profile.modify'), icon: <UserIcon />, to: '/profile' },
        // Admins only (GET /admin/me): the admin page.
        ...(admin ? [{ key: 'admin', label: t('profile.admin'), to: '/admin' }] : []),
        { kind: 'separator', key: 'sep' },
        { key: 'logout', label: t('profile.logout'), icon: <LogoutIcon />, onSelect: startLogout },
      ]}
    />
  );
}
