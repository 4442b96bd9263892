import { useTranslation } from 'react-i18next';

import type { IconChoice } from '../types';
import { WidgetIcon } from './icons';

export interface IconSelectorWidgetProps {
  icons: IconChoice[];
  enabled: boolean;
  onPick: (icon: IconChoice) => void;
}

/** `iconSelector`: one button per icon; picking one sends its name. */
export function IconSelectorWidget({ icons, enabled, onPick }: IconSelectorWidgetProps) {
  const { t } = useTranslation('chat');
  if (icons.length === 0) return null;
  return (
    <div className="chat-icons" role="group" aria-label={t('widgets.iconSelector')}>
      {icons.map((icon) => (
        <button
          key={icon.name}
          type="button"
          className="chat-icon-choice"
          disabled={!enabled}
          onClick={() => onPick(icon)}
        >
          <WidgetIcon icon={icon.icon} size={28} />
          <span className="chat-icon-choice__name">{icon.name}</span>
        </button>
      ))}
    </div>
  );
}
