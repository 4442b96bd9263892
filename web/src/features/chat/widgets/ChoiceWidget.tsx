import { useTranslation } from 'react-i18next';

import { CheckIcon } from '../../../ui/icons';
import { ExternalIcon } from '../components/UiIcons';
import type { Choice } from '../types';
import { safeUrl } from '../../../chat-core/urls';
import { isChosen } from './chosen';

export interface ChoiceWidgetProps {
  choices: Choice[];
  variant: 'options' | 'buttons' | 'onboarding';
  /** Only the last message's widget can be used. */
  enabled: boolean;
  /** What was answered to it: that choice is marked, none can be used any more. */
  chosen?: string;
  onChoose: (choice: Choice) => void;
}

/** `options`, `buttons` and `onboarding`: a value is sent, a goto opens that page, a link a new tab. */
export function ChoiceWidget({ choices, variant, enabled, chosen, onChoose }: ChoiceWidgetProps) {
  const { t } = useTranslation('chat');
  if (choices.length === 0) return null;
  return (
    <div className={`chat-choices chat-choices--${variant}`} role="group" aria-label={t(`widgets.${variant}`)}>
      {choices.map((choice, index) => {
        const key = `${index}-${choice.label}`;
        const href = choice.link ? safeUrl(choice.link) : '';
        const picked = !choice.goto && !choice.link && isChosen(chosen, choice.value, choice.label);
        if (choice.link && href && enabled)
          return (
            <a key={key} className="chat-choice" href={href} target="_blank" rel="noopener noreferrer">
              <span>{choice.label}</span>
              <ExternalIcon />
              <span className="visually-hidden"> {t('widgets.newTab')}</span>
            </a>
          );
        return (
          <button
            key={key}
            type="button"
            className={picked ? 'chat-choice chat-choice--chosen' : 'chat-choice'}
            aria-pressed={chosen === undefined ? undefined : picked}
            disabled={!enabled || (!!choice.link && !href)}
            onClick={() => onChoose(choice)}
          >
            {picked && <CheckIcon size={16} />}
            {choice.label}
          </button>
        );
      })}
    </div>
  );
}
