import type { SparkView } from '@sparks/contracts';

import type { SparkPage } from './api';

/**
 * docs/product.md §4 "Sparks" transitions on a cached page of the list: delete removes the item, pin toggle and rename
 * replace it, create adds it. Each answers the same object when nothing changes, so SWR keeps its render.
 */

export function removeSpark(page: SparkPage, sparkId: string): SparkPage {
  if (!page.items.some((spark) => spark._id === sparkId)) return page;
  return {
    ...page,
    items: page.items.filter((spark) => spark._id !== sparkId),
    total: Math.max(0, page.total - 1),
  };
}

export function replaceSpark(page: SparkPage, updated: SparkView): SparkPage {
  if (!page.items.some((spark) => spark._id === updated._id)) return page;
  return { ...page, items: page.items.map((spark) => (spark._id === updated._id ? updated : spark)) };
}

/** A new Spark (newest) joins the first page of a list it belongs to; the page keeps its size. */
export function addSpark(page: SparkPage, created: SparkView): SparkPage {
  if (page.items.some((spark) => spark._id === created._id)) return replaceSpark(page, created);
  if (page.page !== 1) return { ...page, total: page.total + 1 };
  return { ...page, items: [created, ...page.items].slice(0, page.limit), total: page.total + 1 };
}

/** Number of pages of a list of `total` items shown `limit` at a time (at least 1). */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, limit)));
}
