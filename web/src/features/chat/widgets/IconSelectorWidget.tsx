import { useTranslation } from 'react-i18next';

import type { CSSProperties } from 'react';

import type { IconChoice, Palette } from '../types';
import { isChosen } from './chosen';
import { WidgetIcon } from './icons';

export interface IconSelectorWidgetProps {
  icons: IconChoice[];
  /** The Spark's chosen colours: the icons show in them. */
  palette?: Omit<Palette, 'name'> | null;
  enabled: boolean;
  /** The icon answered: marked, and none can be picked any more. */
  chosen?: string;
  onPick: (icon: IconChoice) => void;
}

/** `iconSelector`: one button per icon; picking one sends its name. */
export function IconSelectorWidget({ icons, palette, enabled, chosen, onPick }: IconSelectorWidgetProps) {
  const { t } = useTranslation('chat');
  if (icons.length === 0) return null;
  return (
    <div
      className="chat-icons"
      role="group"
      aria-label={t('widgets.iconSelector')}
      style={
        palette
          ? ({ '--icon-primary': palette.primary, '--icon-secondary': palette.secondary } as CSSProperties)
          : undefined
      }
    >
      {icons.map((icon) => {
        const picked = isChosen(chosen, undefined, icon.name);
        return (
          <button
            key={icon.name}
            type="button"
            className={picked ? 'chat-icon-choice chat-icon-choice--chosen' : 'chat-icon-choice'}
            aria-pressed={chosen === undefined ? undefined : picked}
            disabled={!enabled}
            onClick={() => onPick(icon)}
          >
            <span className="chat-icon-choice__badge" data-testid="icon-badge">
              <WidgetIcon icon={icon.icon} size={24} />
            </span>
            <span className="chat-icon-choice__name">{icon.name}</span>
          </button>
        );
      })}
    </div>
  );
}
