import { useCallback } from 'react';
import { useSWRConfig } from 'swr';

import { isObjectivesKey } from '../../objectives/api';
import { PROFILE_KEY } from '../../account/useProfile';
import { useSparkActions } from '../../sparks/hooks';

/**
 * For ChatPanel's `onMessages`: after each reply the assistant may have completed objectives, renamed or
 * themed the Spark, or used an interaction, so the objectives panel, the Sparks and the profile are read again.
 */
export function useAfterReply(objectivesKey: string | null, sparkId?: string) {
  const { mutate } = useSWRConfig();
  const { refresh } = useSparkActions();
  return useCallback(() => {
    if (objectivesKey) void mutate((key) => isObjectivesKey(key, objectivesKey));
    void mutate(PROFILE_KEY);
    void refresh(sparkId);
  }, [mutate, refresh, objectivesKey, sparkId]);
}
