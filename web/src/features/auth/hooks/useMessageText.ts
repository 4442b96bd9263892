import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { messageTextFor, type Message } from '../errors';

/** Renders form messages (client checks and server errors) in the current language. */
export function useMessageText(): (message: Message | null | undefined) => string | undefined {
  const { i18n } = useTranslation('auth');
  const language = i18n.language;
  return useMemo(() => {
    const text = messageTextFor(i18n);
    return (message) => (message ? text(message) : undefined);
    // The language is a dependency so what is rendered follows a language switch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [i18n, language]);
}
