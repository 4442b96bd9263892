import { z } from 'zod';
import { MAX_OWNER_ANSWER_LENGTH, MAX_OWNER_QUESTION_LENGTH } from './rules';

/**
 * Answer checks (issue 35 item 3): questions the owner keeps with their approved answers. Whenever the Spark's
 * knowledge changes the worker asks every check again, and the Spark's chat says which answers changed.
 */

export const checkParams = z.object({ sparkId: z.uuid(), checkId: z.uuid() });

/** Where a check came from: a test's answer rated up, a fixed question of the review list, or typed by hand. */
export const CHECK_ORIGINS = ['rating', 'fix', 'owner'] as const;

/** A check is kept from an answer of a test chat (`messageId`), or typed: its question and approved answer. */
export const createCheckSchema = z.union([
  z.strictObject({ messageId: z.uuid() }),
  z.strictObject({
    question: z.string().trim().min(1).max(MAX_OWNER_QUESTION_LENGTH),
    answer: z.string().trim().min(1).max(MAX_OWNER_ANSWER_LENGTH),
    origin: z.enum(['fix', 'owner']).optional(),
  }),
]);
export type CreateCheckRequest = z.input<typeof createCheckSchema>;

export const checkViewSchema = z.object({
  id: z.string(),
  question: z.string(),
  /** The answer the owner approved. */
  expected: z.string(),
  origin: z.enum(CHECK_ORIGINS),
  /**
   * `pending`: not asked since it was kept; `same`: the last run gave the approved answer; `changed`: it gave another
   * one (`latest`), to approve or fix.
   */
  status: z.enum(['pending', 'same', 'changed']),
  /** What the Spark said the last time the check was asked. */
  latest: z.string().nullable(),
  checkedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type CheckView = z.infer<typeof checkViewSchema>;

export const checkDeletedSchema = z.object({ deleted: z.literal(true) });
export const checksQueuedSchema = z.object({ queued: z.literal(true) });
