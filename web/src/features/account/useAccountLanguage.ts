import type { UserProfile } from '@sparks/contracts';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { api } from '../../api/client';
import { toLanguage, type Language } from '../../i18n';
import { useProfile } from './useProfile';

/**
 * One language setting for a signed-in user (issue 18 item 12): the account's `config.language`. Whatever
 * changes it — the header switch, the settings or the profile assistant — the interface follows at once, and
 * a reload opens in it. Answers the header switch's handler: the interface changes at once and the account
 * is updated (on failure the interface goes back to the account's language).
 */
export function useAccountLanguage(): (language: Language) => void {
  const { i18n } = useTranslation();
  const { data: profile, mutate } = useProfile();
  const accountLanguage = profile?.config?.language;

  // The account's language arrived or was changed (by an assistant, in another tab…): apply it.
  useEffect(() => {
    if (accountLanguage && toLanguage(i18n.resolvedLanguage ?? i18n.language) !== accountLanguage)
      void i18n.changeLanguage(accountLanguage);
  }, [accountLanguage, i18n]);

  return useCallback(
    (language: Language) => {
      void i18n.changeLanguage(language);
      void mutate(api.patch<UserProfile>('/account/profile', { config: { language } }), {
        optimisticData: (current) =>
          current ? { ...current, config: { ...current.config, language } } : (current as unknown as UserProfile),
        populateCache: true,
        rollbackOnError: true,
        revalidate: false,
      }).catch((error: unknown) => console.error('Failed to save the language', error));
    },
    [i18n, mutate],
  );
}
