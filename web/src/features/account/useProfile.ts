import type { UserProfile } from '@sparks/contracts';
import useSWR, { type SWRConfiguration } from 'swr';

import { api } from '../../api/client';

export const PROFILE_KEY = ['profile'] as const;

const fetchProfile = () => api.get<UserProfile>('/account/profile');

/** GET /account/profile: the signed-in user with the first tenant's plan, limits, usage and trial. */
export function useProfile() {
  return useSWR<UserProfile, Error>(PROFILE_KEY, fetchProfile);
}

const CACHED: SWRConfiguration = { revalidateIfStale: false, revalidateOnFocus: false, revalidateOnReconnect: false };

/**
 * The profile as the app already holds it, for a page that only reads it: fetched when nothing is cached yet, never
 * again on mount, focus or reconnect (the signed-in shell's `useProfile` keeps it fresh, and every change to it
 * reaches this hook through the cache).
 */
export function useCachedProfile() {
  return useSWR<UserProfile, Error>(PROFILE_KEY, fetchProfile, CACHED);
}
