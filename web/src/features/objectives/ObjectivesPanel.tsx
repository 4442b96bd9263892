import type { ObjectiveGroupView, ObjectiveStepView } from '@sparks/contracts';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { toLanguage } from '../../i18n';
import { useObjectives } from './api';
import { ProgressRing } from './ProgressRing';
import { groupStatus, type GroupStatus } from './status';
import './objectives.css';

export interface ObjectivesPanelProps {
  id: string;
  /** GET /objectives/{objectivesKey}: a Spark id, or deploy, profile, billing. */
  objectivesKey: string;
  /** The name shown before the word for 'is' until the server's title arrives (the Spark or page name). */
  fallbackTitle: string;
  open: boolean;
  onClose: () => void;
}

function StatusIcon({ status }: { status: GroupStatus | ObjectiveStepView['status'] }) {
  const common = { width: 18, height: 18, viewBox: '0 0 24 24', 'aria-hidden': true, focusable: false } as const;
  switch (status) {
    case 'completed':
      return (
        <svg {...common} className="status-icon status-icon--completed">
          <circle cx="12" cy="12" r="10" />
          <path d="m7.5 12.5 3 3 6-6.5" fill="none" />
        </svg>
      );
    case 'error':
      return (
        <svg {...common} className="status-icon status-icon--error">
          <circle cx="12" cy="12" r="10" />
          <path d="M12 7v6M12 16.5v.5" fill="none" />
        </svg>
      );
    case 'inProgress':
      return (
        <svg {...common} className="status-icon status-icon--inProgress">
          <circle cx="12" cy="12" r="9" fill="none" />
          <path d="M12 3a9 9 0 0 1 0 18Z" />
        </svg>
      );
    case 'pending':
      return (
        <svg {...common} className="status-icon status-icon--pending">
          <circle cx="12" cy="12" r="9" fill="none" />
        </svg>
      );
  }
}

function ObjectiveGroup({ group }: { group: ObjectiveGroupView }) {
  const { t } = useTranslation('objectives');
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const status = group.status ?? groupStatus(group.steps);
  const done = group.steps.filter((step) => step.status === 'completed').length;
  return (
    <li className={`objective objective--${status}`}>
      <h3 className="objective__heading">
        <button
          type="button"
          className="objective__toggle"
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded((value) => !value)}
        >
          <StatusIcon status={status} />
          <span className="objective__title">{group.title}</span>
          <span className="objective__status">
            {t(`status.${status}`)}
            <span className="objective__count"> · {t('steps', { done, count: group.steps.length })}</span>
          </span>
          <svg className="objective__chevron" width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
            <path d="m6 9 6 6 6-6" fill="none" />
          </svg>
        </button>
      </h3>
      <ul id={listId} className="objective__steps" hidden={!expanded}>
        {group.steps.map((step) => (
          <li key={step._id} className={`objective-step objective-step--${step.status}`}>
            <StatusIcon status={step.status} />
            <span className="objective-step__title">{step.title}</span>
            <span className="visually-hidden">{t(`status.${step.status}`)}</span>
          </li>
        ))}
      </ul>
    </li>
  );
}

export interface ObjectivesPanelViewProps {
  id: string;
  /** The Spark's or the page's name, before the word for 'is'. */
  name: string;
  /** 0–100. */
  progress: number;
  /** The groups, or what to say instead (loading, failed, none). */
  content: ObjectiveGroupView[] | 'loading' | 'error';
  open: boolean;
  onClose: () => void;
  className?: string;
}

/** The panel itself, fed with data: the live panel below, or the onboarding tour's demo. */
export function ObjectivesPanelView({
  id,
  name,
  progress,
  content,
  open,
  onClose,
  className,
}: ObjectivesPanelViewProps) {
  const { t } = useTranslation('objectives');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const headingId = useId();

  // Opening moves the focus into the panel (its heading); closing is handled by the opener.
  useEffect(() => {
    if (open) headingRef.current?.focus({ preventScroll: true });
  }, [open]);

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
  }

  return (
    <aside
      id={id}
      className={['objectives-panel', open && 'objectives-panel--open', className].filter(Boolean).join(' ')}
      aria-labelledby={headingId}
      inert={!open}
      onKeyDown={onKeyDown}
    >
      <div className="objectives-panel__header">
        <p className="objectives-panel__label">{t('label')}</p>
        <button type="button" className="icon-button" aria-label={t('close')} title={t('close')} onClick={onClose}>
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M6 6l12 12M18 6 6 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      <h2 id={headingId} ref={headingRef} tabIndex={-1} className="objectives-panel__title">
        {t('heading', { name })}
      </h2>
      <div className="objectives-panel__ring">
        <ProgressRing progress={progress} />
      </div>
      {content === 'error' ? (
        <p className="objectives-panel__note" role="alert">
          {t('error')}
        </p>
      ) : content === 'loading' ? (
        <p className="objectives-panel__note" role="status">
          {t('loading')}
        </p>
      ) : content.length === 0 ? (
        <p className="objectives-panel__note">{t('empty')}</p>
      ) : (
        <ul className="objectives-panel__groups">
          {content.map((group) => (
            <ObjectiveGroup key={group._id} group={group} />
          ))}
        </ul>
      )}
    </aside>
  );
}

/**
 * The objectives side panel (docs/product.md §2): slides in from the right; the title is the Spark's (or the page's) name
 * followed by the word for 'is', then the progress ring and the objective groups, which expand on click.
 * Read while open and every few seconds; the chat's replies refresh it too (see useAfterReply).
 */
export function ObjectivesPanel({ id, objectivesKey, fallbackTitle, open, onClose }: ObjectivesPanelProps) {
  const { i18n } = useTranslation('objectives');
  const lang = toLanguage(i18n.resolvedLanguage ?? i18n.language);
  const { data, error, isLoading } = useObjectives(objectivesKey, lang, open);
  const content = data ? data.groups : error ? 'error' : isLoading ? 'loading' : [];
  return (
    <ObjectivesPanelView
      id={id}
      name={data?.meta.title || fallbackTitle}
      progress={data?.meta.progress ?? 0}
      content={content}
      open={open}
      onClose={onClose}
    />
  );
}
