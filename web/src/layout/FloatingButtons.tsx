import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';

import { ChatIcon, PlusIcon } from '../ui/icons';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../ui/useMediaQuery';

/**
 * The floating buttons of the mobile layout (docs/product.md §2): below 1140 px one opens the main chat (not shown on it);
 * on small screens another opens /new-spark with a fresh chat (not shown there). `forced` shows both (the tour
 * points at them).
 */
export function FloatingButtons({ forced }: { forced: boolean }) {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const small = useMediaQuery(SMALL_SCREEN_QUERY);
  const buttons = [
    {
      shown: forced || (small && pathname !== '/new-spark'),
      to: '/new-spark',
      tour: 'fab-new-spark',
      label: t('floating.newSpark'),
      className: 'floating-button floating-button--secondary',
      icon: <PlusIcon size={24} />,
    },
    {
      shown: forced || pathname !== '/',
      to: '/?mainChat=true',
      tour: 'fab-main-chat',
      label: t('floating.mainChat'),
      className: 'floating-button',
      icon: <ChatIcon size={24} />,
    },
  ].filter((button) => button.shown);
  if (buttons.length === 0) return null;
  return (
    <div className="floating-buttons">
      {buttons.map((button) => (
        <Link
          key={button.to}
          to={button.to}
          className={button.className}
          data-tour={button.tour}
          aria-label={button.label}
          title={button.label}
        >
          {button.icon}
        </Link>
      ))}
    </div>
  );
}
