import { useTranslation } from 'react-i18next';

import type { Palette } from '../types';

export interface ColorPaletteWidgetProps {
  palettes: Palette[];
  enabled: boolean;
  onPick: (palette: Palette) => void;
}

/** `colorPalette`: one swatch per palette; picking one sends its name. */
export function ColorPaletteWidget({ palettes, enabled, onPick }: ColorPaletteWidgetProps) {
  const { t } = useTranslation('chat');
  if (palettes.length === 0) return null;
  return (
    <div className="chat-palettes" role="group" aria-label={t('widgets.colorPalette')}>
      {palettes.map((palette) => (
        <button
          key={palette.name}
          type="button"
          className="chat-palette"
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
      ))}
    </div>
  );
}
