import { useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

import { ObjectivesPanel } from '../../objectives/ObjectivesPanel';
import { showsObjectivesButton } from '../../objectives/visibility';
import { TargetIcon } from '../../../ui/icons';
import '../chat-page.css';

export interface ChatPageFrameProps {
  /** The page's heading (an `<h1>`), e.g. the editable Spark title. */
  title: ReactNode;
  /** Next to the title: the spark tag. */
  tag?: ReactNode;
  /** At the end of the header: the close button. */
  actions?: ReactNode;
  /** GET /objectives/{key} for the side panel; none, no panel. */
  objectivesKey?: string | null;
  /** The name before the word for 'is' in the panel until the server's title arrives. */
  objectivesTitle?: string;
  /** The chat. */
  children: ReactNode;
  /** Another side panel beside the chat, as the objectives panel (the Spark's unanswered questions). */
  sidePanel?: ReactNode;
  /**
   * The title is a name the user chose (a Spark's): on a phone it gets the header's first row to itself, on up to
   * two lines, and the tag and the actions go on a second row instead of crowding it out. Wide screens: one row.
   */
  stackOnPhone?: boolean;
}

/**
 * A chat page: a header (title, tag, the objectives button, actions) above the chat, and the objectives panel
 * sliding in from the right over it (docs/product.md §2). The button shows only where the panel belongs (visibility.ts).
 */
export function ChatPageFrame({
  title,
  tag,
  actions,
  objectivesKey,
  objectivesTitle = '',
  children,
  sidePanel,
  stackOnPhone = false,
}: ChatPageFrameProps) {
  const { t } = useTranslation('objectives');
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const withPanel = Boolean(objectivesKey) && showsObjectivesButton(pathname);

  function close() {
    setOpen(false);
    buttonRef.current?.focus();
  }

  const actionsGroup = (
    <div className="chat-page__actions">
      {withPanel && (
        <button
          ref={buttonRef}
          type="button"
          className={open ? 'chip-button chip-button--pressed' : 'chip-button'}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((value) => !value)}
        >
          <TargetIcon size={18} />
          <span>{t('label')}</span>
        </button>
      )}
      {actions}
    </div>
  );

  return (
    <section className="chat-page">
      {stackOnPhone ? (
        <header className="chat-page__header chat-page__header--stacked">
          <div className="chat-page__title">{title}</div>
          <div className="chat-page__meta">
            {tag}
            {actionsGroup}
          </div>
        </header>
      ) : (
        <header className="chat-page__header">
          <div className="chat-page__title">
            {title}
            {tag}
          </div>
          {actionsGroup}
        </header>
      )}
      <div className="chat-page__body">
        <div className="chat-page__chat">{children}</div>
        {withPanel && objectivesKey && (
          <ObjectivesPanel
            id={panelId}
            objectivesKey={objectivesKey}
            fallbackTitle={objectivesTitle}
            open={open}
            onClose={close}
          />
        )}
        {sidePanel}
      </div>
    </section>
  );
}
