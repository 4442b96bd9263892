import type { UserProfile } from '@sparks/contracts';
import { useEffect, useRef } from 'react';

import { api } from '../../api/client';
import { browserTimeZone } from './timeZone';
import { useProfile } from './useProfile';

/**
 * The signed-in app tells the account its time zone (issue 35 item 4): when the profile has none (`timeZone: null`),
 * the browser's is sent once, and only that field of the cached profile changes with the answer. A profile that has
 * one costs no request; a zone the server refuses is left (the digest then goes by UTC) and not sent again while the
 * shell stays mounted.
 */
export function useAccountTimeZone(): void {
  const { data: profile, mutate } = useProfile();
  const sent = useRef(false);
  const missing = profile?.timeZone === null;

  useEffect(() => {
    if (!missing || sent.current) return;
    const timeZone = browserTimeZone();
    if (!timeZone) return;
    sent.current = true;
    api
      .patch<UserProfile>('/account/profile', { timeZone })
      .then((saved) =>
        mutate((current) => (current ? { ...current, timeZone: saved.timeZone } : current), { revalidate: false }),
      )
      .catch((error: unknown) => console.error('Failed to save the time zone', error));
  }, [missing, mutate]);
}
