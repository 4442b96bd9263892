import type { WidgetType } from '../display';
import type { ChatMessage, Choice } from '../types';
import { CardWidget } from './CardWidget';
import { ChoiceWidget } from './ChoiceWidget';
import { ColorPaletteWidget } from './ColorPaletteWidget';
import { IconSelectorWidget } from './IconSelectorWidget';
import { readCardInfo, readChoices, readIcons, readPalettes, readPreview, readUserCardInfo } from './parse';
import { WidgetPreview } from './WidgetPreview';

export interface WidgetProps {
  widget: WidgetType;
  message: ChatMessage;
  /** Usable: the last message, and no reply on its way. */
  enabled: boolean;
  onChoose: (choice: Choice) => void;
}

const title = (message: ChatMessage) => (typeof message.data.title === 'string' ? message.data.title : '');

/** The widget of an action message (spec §3 action data types). */
export function Widget({ widget, message, enabled, onChoose }: WidgetProps) {
  const data = message.data;
  switch (widget) {
    case 'options':
    case 'buttons':
    case 'onboarding':
      return (
        <ChoiceWidget variant={widget} choices={readChoices(data[widget])} enabled={enabled} onChoose={onChoose} />
      );
    case 'colorPalette':
      return (
        <ColorPaletteWidget
          palettes={readPalettes(data.palettes)}
          enabled={enabled}
          onPick={(palette) => onChoose({ label: palette.name, value: palette.name })}
        />
      );
    case 'iconSelector':
      return (
        <IconSelectorWidget
          icons={readIcons(data.icons)}
          enabled={enabled}
          onPick={(icon) => onChoose({ label: icon.name, value: icon.name })}
        />
      );
    case 'card':
      return <CardWidget variant="card" title={title(message)} info={readCardInfo(data.info)} />;
    case 'userCard':
      return <CardWidget variant="userCard" title={title(message)} info={readUserCardInfo(data.info)} />;
    case 'widgetPreview': {
      const preview = readPreview(data.preview);
      return preview ? <WidgetPreview title={title(message)} preview={preview} /> : null;
    }
  }
}
