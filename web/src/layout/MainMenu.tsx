import type { UserProfile } from '@sparks/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { canDeploy } from '../features/account/profile';
import { DropdownMenu, type DropdownEntry } from '../ui/DropdownMenu';
import { BillingIcon, ChartIcon, CompassIcon, DeployIcon, MenuIcon, PlusIcon, SettingsIcon } from '../ui/icons';
import { MAIN_MENU } from './navigation';

const ICONS: Record<string, ReactNode> = {
  settings: <SettingsIcon />,
  billing: <BillingIcon />,
  deploy: <DeployIcon />,
  'new-spark': <PlusIcon />,
  onBoarding: <CompassIcon />,
  analytics: <ChartIcon />,
};

/**
 * The Menu dropdown of the sidebar's top bar (docs/product.md §2): settings, billing, deploy, new-spark and onBoarding,
 * then analytics.
 * Deploy is greyed out, with the reason as a tooltip, when the plan's deployments limit is 0.
 */
export function MainMenu({ profile }: { profile: UserProfile | undefined }) {
  const { t } = useTranslation(['common', 'layout']);
  const deployAllowed = canDeploy(profile);
  const entries: DropdownEntry[] = MAIN_MENU.map((entry) => {
    const disabled = entry.title === 'deploy' && !deployAllowed;
    return {
      key: entry.title,
      label: t(entry.labelKey),
      icon: ICONS[entry.title],
      to: entry.path,
      disabled,
      ...(disabled ? { hint: t('layout:menu.deployDisabled') } : {}),
    };
  });
  return (
    <DropdownMenu
      className="menu--main"
      label={t('layout:menu.button')}
      buttonClassName="topbar-button"
      button={
        <>
          <MenuIcon />
          <span>{t('layout:menu.button')}</span>
        </>
      }
      entries={entries}
    />
  );
}
