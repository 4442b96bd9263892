import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

import type { WidgetPreviewData } from '../types';
import { WidgetIcon } from './icons';

const DEFAULT_PALETTE = { name: '', primary: '#6a4cf5', secondary: '#ece8ff' };

/** `widgetPreview`: a small mock of the website chat widget in the Spark's colours, icon and greeting. */
export function WidgetPreview({ title, preview }: { title: string; preview: WidgetPreviewData }) {
  const { t } = useTranslation('chat');
  const palette = preview.palette ?? DEFAULT_PALETTE;
  const style = {
    '--preview-primary': palette.primary,
    '--preview-secondary': palette.secondary,
  } as CSSProperties;
  return (
    <figure className="chat-preview" style={style}>
      {title && <figcaption className="chat-preview__title">{title}</figcaption>}
      <div
        className="chat-preview__window"
        role="img"
        aria-label={t('widgets.previewLabel', { name: preview.name, message: preview.initialMessage })}
      >
        <div className="chat-preview__header">
          <span className="chat-preview__avatar">
            <WidgetIcon icon={preview.icon} size={18} />
          </span>
          <span className="chat-preview__name">{preview.name}</span>
          <span className="chat-preview__status">{t('widgets.previewOnline')}</span>
        </div>
        <div className="chat-preview__body">
          <p className="chat-preview__bubble">{preview.initialMessage}</p>
        </div>
        <div className="chat-preview__input">
          <span>{t('widgets.previewPlaceholder')}</span>
          <span className="chat-preview__send" />
        </div>
      </div>
      <span className="chat-preview__launcher" aria-hidden="true">
        <WidgetIcon icon={preview.icon} size={22} />
      </span>
    </figure>
  );
}
