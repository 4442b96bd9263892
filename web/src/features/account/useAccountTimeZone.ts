import type { UserProfile } from '@sparks/contracts';
import { useEffect, useRef } from 'react';

import { api } from '../../api/client';
import { browserTimeZone } from './timeZone';
import { useProfile } from './useProfile';

/**
 * The signed-in app tells the account its time zone (issue 35 item 4): when the profile has none (`timeZone: null`),
 * the browser's is sent once, and the profile is then read again. A profile that has one costs no request; a zone the
 * server refuses is left (the digest then goes by UTC) and not sent again while the shell stays mounted.
 *
 * Read again rather than written into the cache: the owner may switch the language while the zone is on its way, and
 * SWR hands a function mutator the profile as it was before that switch's optimistic change, so writing the zone over
 * it put the old language back (a flaky e2e in CI). A read that overlaps the switch is dropped by SWR, whose own
 * answer then carries both.
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
      .then(() => mutate())
      .catch((error: unknown) => console.error('Failed to save the time zone', error));
  }, [missing, mutate]);
}
