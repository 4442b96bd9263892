import { useTranslation } from 'react-i18next';

import type { Palette } from '../types';
import { isChosen } from './chosen';

export interface ColorPaletteWidgetProps {
  palettes: Palette[];
  enabled: boolean;
  /** The palette answered: marked, and none can be picked any more. */
  chosen?: string;
  onPick: (palette: Palette) => void;
}

/** `colorPalette`: one swatch per palette; picking one sends its name. */
export function ColorPaletteWidget({ palettes, enabled, chosen, onPick }: ColorPaletteWidgetProps) {
  const { t } = useTranslation('chat');
  if (palettes.length === 0) return null;
  return (
    <div className="chat-palettes" role="group" aria-label={t('widgets.colorPalette')}>
      {palettes.map((palette) => {
        const picked = isChosen(chosen, undefined, palette.name);
        return (
          <button
            key={palette.name}
            type="button"
            className={picked ? 'chat-palette chat-palette--chosen' : 'chat-palette'}
            aria-pressed={chosen === undefined ? undefined : picked}
            disabled={!enabled}
            onClick={() => onPick(palette)}
            title={`${palette.primary} · ${palette.secondary}`}
          >
            <span className="chat-palette__swatch" aria-hidden="true">
              <span style={{ background: palette.primary }} />
              <span style={{ background: palette.secondary }} />
            </span>
            <span className="chat-palette__name">{palette.name}</span>
          </button>
        );
      })}
    </div>
  );
}
