import { z } from 'zod';
import { MAX_OWNER_ANSWER_LENGTH, MAX_OWNER_QUESTION_LENGTH } from './rules';

/** What the owner learns from how their Spark is used: the questions it could not answer (issue 17 item 5). */

export const unansweredParams = z.object({ sparkId: z.uuid(), questionId: z.uuid() });

/** Similar questions the Spark could not answer, together (docs/decisions.md, "Unanswered questions"). */
export const unansweredGroupViewSchema = z.object({
  /** The newest question of the group: the one to answer. */
  id: z.string(),
  question: z.string(),
  /** Up to five distinct wordings, newest first. */
  variants: z.array(z.string()),
  count: z.number().int(),
  firstAskedAt: z.string(),
  lastAskedAt: z.string(),
  status: z.enum(['open', 'answered']),
  answeredAt: z.string().nullable(),
  /** The owner's answer, once given. */
  answer: z.string().nullable(),
});
export type UnansweredGroupView = z.infer<typeof unansweredGroupViewSchema>;

/** The owner answers in their own words; the question may be reworded (the group's newest by default). */
export const answerUnansweredSchema = z.object({
  answer: z.string().trim().min(1).max(MAX_OWNER_ANSWER_LENGTH),
  question: z.string().trim().min(1).max(MAX_OWNER_QUESTION_LENGTH).optional(),
});
export type AnswerUnansweredRequest = z.infer<typeof answerUnansweredSchema>;

export const unansweredAnsweredSchema = z.object({
  /** The knowledge entry the answer became (retrieval cites it as added by the owner). */
  documentId: z.string(),
  groups: z.array(unansweredGroupViewSchema),
});

/** The owner took back an answer: how many knowledge entries went, and the groups as they are now. */
export const unansweredAnswerRemovedSchema = z.object({
  /** Knowledge entries removed (0 when the group had no answer left). */
  removed: z.number().int(),
  groups: z.array(unansweredGroupViewSchema),
});
