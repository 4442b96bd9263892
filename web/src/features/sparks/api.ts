import type { SparkTestView, SparkView } from '@sparks/contracts';

import { api } from '../../api/client';

/** One page of GET /sparks (newest first): the items and the `meta` of the answer. */
export interface SparkPage {
  items: SparkView[];
  total: number;
  page: number;
  limit: number;
}

interface ListBody {
  data: SparkView[];
  meta: { total: number; page: number; limit: number };
}

/** GET /sparks?page=&limit=&pinned= — a paginated list answers `{ data, meta }`, so the raw instance is used. */
export async function fetchSparks(page: number, limit: number, pinned?: boolean): Promise<SparkPage> {
  const response = await api.axios.get<ListBody>('/sparks', {
    params: { page, limit, ...(pinned === undefined ? {} : { pinned: String(pinned) }) },
  });
  const body = response.data;
  return { items: body.data, total: body.meta.total, page: body.meta.page, limit: body.meta.limit };
}

export function fetchSpark(sparkId: string): Promise<SparkView> {
  return api.get(`/sparks/${encodeURIComponent(sparkId)}`);
}

export function fetchTests(sparkId: string): Promise<SparkTestView[]> {
  return api.get(`/sparks/${encodeURIComponent(sparkId)}/tests`);
}

export function renameSpark(sparkId: string, name: string): Promise<SparkView> {
  return api.patch(`/sparks/${encodeURIComponent(sparkId)}`, { name });
}

export function pinSpark(sparkId: string, pin: boolean): Promise<SparkView> {
  return api.patch(`/sparks/${encodeURIComponent(sparkId)}`, { pin });
}

export function deleteSpark(sparkId: string): Promise<unknown> {
  return api.delete(`/sparks/${encodeURIComponent(sparkId)}`);
}
