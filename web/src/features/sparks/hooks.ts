import type { SparkTestView, SparkView } from '@sparks/contracts';
import { MAX_PINNED_SPARKS } from '@sparks/contracts/rules';
import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';

import { deleteSpark, fetchSpark, fetchSparks, fetchTests, pinSpark, renameSpark, type SparkPage } from './api';
import { clearActiveSparkId, readActiveSparkId } from './activeSpark';
import { isSparksListKey, sparkKey, sparksListKey, testsKey, type SparksListKey } from './keys';
import { addSpark, removeSpark, replaceSpark } from './transitions';

/** A page of the recent (unpinned) Sparks, newest first; the previous page stays on screen while the next loads. */
export function useSparks(page: number, limit: number) {
  return useSWR<SparkPage, Error>(
    sparksListKey({ page, limit, pinned: false }),
    ([, args]: SparksListKey) => fetchSparks(args.page, args.limit, args.pinned),
    { keepPreviousData: true },
  );
}

/** The pinned Sparks, at most {@link MAX_PINNED_SPARKS}. */
export function usePinnedSparks() {
  return useSWR<SparkPage, Error>(
    sparksListKey({ page: 1, limit: MAX_PINNED_SPARKS, pinned: true }),
    ([, args]: SparksListKey) => fetchSparks(args.page, args.limit, args.pinned),
  );
}

export function useSpark(sparkId: string | undefined) {
  return useSWR<SparkView, Error>(sparkId ? sparkKey(sparkId) : null, ([, id]: readonly [string, string]) =>
    fetchSpark(id),
  );
}

/** The tests of a Spark (at most 5); nothing is fetched without a Spark. */
export function useTests(sparkId: string | null | undefined) {
  return useSWR<SparkTestView[], Error>(sparkId ? testsKey(sparkId) : null, ([, id]: readonly [string, string]) =>
    fetchTests(id),
  );
}

/**
 * The Sparks transitions of docs/product.md §4 applied to every cached list and to the cached Spark, so the sidebar,
 * the page title and the home page agree: rename and pin toggle replace, delete removes, create adds. Lists
 * are revalidated afterwards (a pin moves a Spark between the pinned and the recent lists).
 */
export function useSparkActions() {
  const { mutate } = useSWRConfig();

  const updateLists = useCallback(
    (change: (page: SparkPage) => SparkPage, which: (key: SparksListKey) => boolean = () => true) =>
      mutate<SparkPage>(
        (key) => isSparksListKey(key) && which(key),
        (page) => (page ? change(page) : page),
        {
          revalidate: true,
        },
      ),
    [mutate],
  );

  const replace = useCallback(
    async (spark: SparkView) => {
      await mutate(sparkKey(spark._id), spark, { revalidate: false });
      await updateLists((page) => replaceSpark(page, spark));
    },
    [mutate, updateLists],
  );

  const rename = useCallback(
    async (sparkId: string, name: string) => {
      const updated = await renameSpark(sparkId, name);
      await replace(updated);
      return updated;
    },
    [replace],
  );

  const togglePin = useCallback(
    async (spark: SparkView) => {
      const updated = await pinSpark(spark._id, !spark.pin);
      await replace(updated);
      return updated;
    },
    [replace],
  );

  /** DELETE, then `afterDelete` (leave the Spark's page), then the caches forget it. */
  const remove = useCallback(
    async (sparkId: string, afterDelete?: () => unknown) => {
      await deleteSpark(sparkId);
      if (readActiveSparkId() === sparkId) clearActiveSparkId();
      await afterDelete?.();
      // The Spark is gone: forget it without asking again (its page would show "Spark not found").
      await mutate(sparkKey(sparkId), undefined, { revalidate: false });
      await mutate(testsKey(sparkId), undefined, { revalidate: false });
      await updateLists((page) => removeSpark(page, sparkId));
    },
    [mutate, updateLists],
  );

  /** For the screens that create a Spark (new-spark): the new one shows in the lists at once. */
  const created = useCallback(
    async (spark: SparkView) => {
      await mutate(sparkKey(spark._id), spark, { revalidate: false });
      await updateLists(
        (page) => addSpark(page, spark),
        ([, args]) => args.pinned === undefined || args.pinned === spark.pin,
      );
    },
    [mutate, updateLists],
  );

  /** After a chat reply: the builder may have renamed the Spark or changed its theme. */
  const refresh = useCallback(
    async (sparkId?: string) => {
      if (sparkId) await mutate(sparkKey(sparkId));
      await mutate(isSparksListKey);
    },
    [mutate],
  );

  return { rename, togglePin, remove, created, replace, refresh };
}
