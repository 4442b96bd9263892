import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { SparksNav } from '../features/sparks/components/SparksNav';
import { useProfile } from '../features/account/useProfile';
import { CloseIcon } from '../ui/icons';
import { MainMenu } from './MainMenu';
import { ProfileMenu } from './ProfileMenu';

export interface SidebarProps {
  id: string;
  /** Below 1140 px the sidebar is a drawer behind the header's menu button. */
  mobile: boolean;
  open: boolean;
  onClose: () => void;
}

/**
 * The left sidebar (docs/product.md §2): a top bar with the Menu and Profile dropdowns, then the pinned and recent Sparks.
 * On small screens it slides in over the page; Escape or the close button hides it again.
 */
export function Sidebar({ id, mobile, open, onClose }: SidebarProps) {
  const { t } = useTranslation(['common', 'layout']);
  const { data: profile } = useProfile();
  const ref = useRef<HTMLElement>(null);
  const hidden = mobile && !open;

  useEffect(() => {
    if (mobile && open) ref.current?.querySelector<HTMLElement>('button, a')?.focus();
  }, [mobile, open]);

  return (
    <aside
      id={id}
      ref={ref}
      className={mobile ? (open ? 'sidebar sidebar--drawer sidebar--open' : 'sidebar sidebar--drawer') : 'sidebar'}
      aria-label={t('layout:sidebar.label')}
      inert={hidden}
      onKeyDown={(event) => {
        if (mobile && event.key === 'Escape' && !event.defaultPrevented) onClose();
      }}
    >
      <nav className="sidebar__top" aria-label={t('nav.label')}>
        <MainMenu profile={profile} />
        <ProfileMenu profile={profile} />
        {mobile && (
          <button
            type="button"
            className="icon-button sidebar__close"
            aria-label={t('layout:sidebar.close')}
            title={t('layout:sidebar.close')}
            onClick={onClose}
          >
            <CloseIcon />
          </button>
        )}
      </nav>
      <SparksNav />
    </aside>
  );
}
