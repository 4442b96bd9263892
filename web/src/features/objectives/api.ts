import type { ObjectiveGroupView, ObjectivesMeta } from '@sparks/contracts';
import useSWR from 'swr';

import { api } from '../../api/client';
import type { Language } from '../../i18n';

export interface Objectives {
  groups: ObjectiveGroupView[];
  meta: ObjectivesMeta;
}

export type ObjectivesKey = readonly ['objectives', string, Language];

export function isObjectivesKey(key: unknown, objectivesKey?: string): key is ObjectivesKey {
  return Array.isArray(key) && key[0] === 'objectives' && (objectivesKey === undefined || key[1] === objectivesKey);
}

/** GET /objectives/{key}?lang= → `{ data: groups, meta: { progress, isCompleted, title, key } }`. */
async function fetchObjectives(key: string, lang: Language): Promise<Objectives> {
  const response = await api.axios.get<{ data: ObjectiveGroupView[]; meta: ObjectivesMeta }>(
    `/objectives/${encodeURIComponent(key)}`,
    { params: { lang } },
  );
  return { groups: response.data.data, meta: response.data.meta };
}

/** While the panel is open its objectives are read, and read again every few seconds. */
const OBJECTIVES_REFRESH_MS = 4000;

export function useObjectives(key: string | null, lang: Language, open: boolean) {
  return useSWR<Objectives, Error>(
    key && open ? (['objectives', key, lang] as ObjectivesKey) : null,
    ([, k, l]: ObjectivesKey) => fetchObjectives(k, l),
    { refreshInterval: open ? OBJECTIVES_REFRESH_MS : 0 },
  );
}
