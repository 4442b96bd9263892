import type { SparkTestView, TestVerdict } from '@sparks/contracts';
import { useCallback } from 'react';
import { useSWRConfig } from 'swr';

import { forgetConversation } from '../../chat/storage';
import { transcriptsKey } from '../../insights/api';
import { testsKey } from '../../sparks/keys';
import { createTest, deleteTest, restartTest } from '../api';
import { NO_ACTIVE_SPARK_LOG } from '../rules';
import { appendTest, removeTest } from '../transitions';

/**
 * The test operations and their effect on the cached list `['tests', sparkId]` (shared with the sidebar's
 * test row): add appends, delete removes (docs/product.md §4). Failures are thrown to the caller.
 */
export function useTestActions(sparkId: string) {
  const { mutate } = useSWRConfig();

  const add = useCallback(
    async (name: string): Promise<SparkTestView> => {
      const created = await createTest(sparkId, name);
      await mutate<SparkTestView[]>(testsKey(sparkId), (tests) => appendTest(tests, created), { revalidate: false });
      return created;
    },
    [mutate, sparkId],
  );

  /**
   * DELETE, then `beforeForget` (leave the test's page first), then the cache and the stored conversation. With the
   * owner's `verdict` the server keeps the test's conversation as a transcript: the review panel's list is read again.
   */
  const remove = useCallback(
    async (testId: string, beforeForget?: () => unknown, verdict?: TestVerdict) => {
      await deleteTest(sparkId, testId, verdict);
      await beforeForget?.();
      forgetConversation({ kind: 'test', sparkId, testId });
      await mutate<SparkTestView[]>(testsKey(sparkId), (tests) => removeTest(tests, testId), { revalidate: false });
      if (verdict) await mutate(transcriptsKey(sparkId));
    },
    [mutate, sparkId],
  );

  /** Re-reads the list (after the server refused a sixth test the cache was out of date). */
  const reload = useCallback(() => mutate(testsKey(sparkId)), [mutate, sparkId]);

  /**
   * docs/product.md §4 restart: the server forgets the test's conversation and starts a new one with 'inicio'; the
   * stored conversation of '{sparkId}:{testId}' is dropped so the chat loads the new one.
   */
  const restart = useCallback(
    async (testId: string) => {
      if (!sparkId) {
        console.error(NO_ACTIVE_SPARK_LOG);
        return null;
      }
      const restarted = await restartTest(sparkId, testId);
      forgetConversation({ kind: 'test', sparkId, testId });
      return restarted;
    },
    [sparkId],
  );

  return { add, remove, reload, restart };
}
