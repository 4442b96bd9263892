import { z } from 'zod';

/** What the owner learns from how their Spark is used: the questions it could not answer (issue 17 item 5). */

/** Longest owner's answer (characters) and the longest wording of its question. */
export const MAX_OWNER_ANSWER_LENGTH = 2000;
export const MAX_OWNER_QUESTION_LENGTH = 500;

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
