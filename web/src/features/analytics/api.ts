import type { AnalyticsSummary, SparkAnalytics } from '@sparks/contracts';
import useSWR from 'swr';

import { api } from '../../api/client';

/** One Spark's figures (`sparkId`), or all the owner's Sparks together (null). */
export type AnalyticsScope = string | null;

type AnalyticsKey = readonly ['analytics', string, number, string];

const query = (days: number, tz: string) => `days=${days}&tz=${encodeURIComponent(tz)}`;

const fetchAnalytics = ([, scope, days, tz]: AnalyticsKey) =>
  scope === ''
    ? api.get<AnalyticsSummary>(`/analytics?${query(days, tz)}`)
    : api.get<SparkAnalytics>(`/sparks/${encodeURIComponent(scope)}/analytics?${query(days, tz)}`);

/**
 * GET /sparks/{sparkId}/analytics or /analytics for the last `days` days in the time zone `tz` (nothing is asked while
 * `tz` is undefined: the owner's zone is not known yet). The figures of the period shown stay on screen while another
 * period loads (`isLoading` is only the first load).
 */
export function useAnalytics(scope: AnalyticsScope, days: number, tz: string | undefined) {
  return useSWR<SparkAnalytics | AnalyticsSummary, Error, AnalyticsKey | null>(
    tz === undefined ? null : ['analytics', scope ?? '', days, tz],
    fetchAnalytics,
    { keepPreviousData: true, revalidateOnFocus: false },
  );
}
