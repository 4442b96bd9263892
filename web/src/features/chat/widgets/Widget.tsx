import type { WidgetOf } from '@sparks/contracts';

import type { WidgetType } from '../display';
import type { ChatMessage, Choice } from '../types';
import { CardWidget } from './CardWidget';
import { ChoiceWidget } from './ChoiceWidget';
import { ColorPaletteWidget } from './ColorPaletteWidget';
import { IconSelectorWidget } from './IconSelectorWidget';
import { WidgetPreview } from './WidgetPreview';

export interface WidgetProps {
  widget: WidgetType;
  message: ChatMessage;
  /** Usable: the last message, and no reply on its way. */
  enabled: boolean;
  /** What was answered to it (a value or a label): that choice shows marked, the widget disabled. */
  chosen?: string;
  onChoose: (choice: Choice) => void;
}

/**
 * The data of an action message is one of the widgets of `@sparks/contracts` (chat.ts): the flow engine
 * builds them typed from those schemas and its tests check every one it sends, so the chat reads them as
 * typed, without parsing them again. The one thing a page must survive is a widget type it does not know
 * (a newer server): `toDisplayItems` never gives one to this component (`isWidgetType`).
 */
const as = <T extends WidgetType>(message: ChatMessage, _type: T) => message.data as unknown as WidgetOf<T>;

/** The widget of an action message (docs/product.md §3 action data types). */
export function Widget({ widget, message, enabled, chosen, onChoose }: WidgetProps) {
  switch (widget) {
    case 'options':
      return (
        <ChoiceWidget
          variant={widget}
          choices={as(message, widget).options}
          enabled={enabled}
          chosen={chosen}
          onChoose={onChoose}
        />
      );
    case 'buttons':
      return (
        <ChoiceWidget
          variant={widget}
          choices={as(message, widget).buttons}
          enabled={enabled}
          chosen={chosen}
          onChoose={onChoose}
        />
      );
    case 'onboarding':
      return (
        <ChoiceWidget
          variant={widget}
          choices={as(message, widget).onboarding}
          enabled={enabled}
          chosen={chosen}
          onChoose={onChoose}
        />
      );
    case 'colorPalette':
      return (
        <ColorPaletteWidget
          palettes={as(message, widget).palettes}
          enabled={enabled}
          chosen={chosen}
          onPick={(palette) => onChoose({ label: palette.name, value: palette.name })}
        />
      );
    case 'iconSelector':
      return (
        <IconSelectorWidget
          icons={as(message, widget).icons}
          palette={as(message, widget).palette ?? null}
          enabled={enabled}
          chosen={chosen}
          onPick={(icon) => onChoose({ label: icon.name, value: icon.name })}
        />
      );
    case 'card': {
      const card = as(message, widget);
      return <CardWidget variant="card" title={card.title} info={card.info} />;
    }
    case 'userCard': {
      const card = as(message, widget);
      const info = card.info.map((line) => ({ label: line.type, value: line.result }));
      return <CardWidget variant="userCard" title={card.title} info={info} />;
    }
    case 'widgetPreview': {
      const preview = as(message, widget);
      return <WidgetPreview title={preview.title} preview={preview.preview} />;
    }
  }
}
