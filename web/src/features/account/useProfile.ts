import type { UserProfile } from '@sparks/contracts';
import useSWR from 'swr';

import { api } from '../../api/client';

export const PROFILE_KEY = ['profile'] as const;

/** GET /account/profile: the signed-in user with the first tenant's plan, limits, usage and trial. */
export function useProfile() {
  return useSWR<UserProfile, Error>(PROFILE_KEY, () => api.get<UserProfile>('/account/profile'));
}
