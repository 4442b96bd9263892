import { z } from 'zod';
import { ANSWER_RATINGS } from './chat';
import { deployTokenParam } from './deploy';
import { MAX_FEEDBACK_COMMENT_LENGTH, MAX_OWNER_ANSWER_LENGTH, MAX_OWNER_QUESTION_LENGTH } from './rules';

/**
 * What the owner learns from how their Spark is used: the questions it could not answer (issue 17 item 5) and the
 * answers rated down by the owner in a test or by a visitor in the widget (issue 35), in one review list.
 */

// — ratings —

/** A rating of an answer: thumbs up or down and, optionally, what was wrong (one line or a few). */
export const answerFeedbackSchema = z.object({
  rating: z.enum(ANSWER_RATINGS),
  comment: z
    .string()
    .trim()
    .max(MAX_FEEDBACK_COMMENT_LENGTH)
    .optional()
    .transform((c) => (c ? c : undefined)),
});
export type AnswerFeedbackRequest = z.input<typeof answerFeedbackSchema>;

/** The owner rates an answer of one of their Spark's test chats. */
export const messageFeedbackParams = z.object({ sparkId: z.uuid(), messageId: z.uuid() });
/** A visitor rates an answer of their own widget conversation. */
export const widgetMessageFeedbackParams = z.object({
  token: deployTokenParam,
  conversationId: z.uuid(),
  messageId: z.uuid(),
});

export const answerFeedbackViewSchema = z.object({
  messageId: z.string(),
  rating: z.enum(ANSWER_RATINGS),
  comment: z.string().nullable(),
  ratedAt: z.string(),
});
export type AnswerFeedbackView = z.infer<typeof answerFeedbackViewSchema>;

// — the review list —

/** Why a question is on the owner's review list. */
export const REVIEW_REASONS = ['notCovered', 'ratedDown'] as const;
export type ReviewReason = (typeof REVIEW_REASONS)[number];

/** A passage an answer came from: the document (its title) and the page. */
export const reviewSourceSchema = z.object({ documentId: z.string(), document: z.string(), page: z.number().int() });

export const unansweredParams = z.object({ sparkId: z.uuid(), questionId: z.uuid() });

/**
 * Similar questions the Spark could not answer, or whose answer was rated down, together (docs/decisions.md,
 * "Unanswered questions" and "The review list").
 */
export const unansweredGroupViewSchema = z.object({
  /** The newest question of the group: the one to answer. */
  id: z.string(),
  /** `notCovered`: the documents did not hold the answer; `ratedDown`: an answer was given and rated down. */
  reason: z.enum(REVIEW_REASONS),
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
  /** What the Spark said to the group's newest question (null for questions recorded before issue 35). */
  answerGiven: z.string().nullable(),
  /** The passages that answer came from (none when the documents did not cover it). */
  sources: z.array(reviewSourceSchema),
  /** For `ratedDown`: who rated the newest answer down (the owner in a test, or a visitor), when, and their comment. */
  ratedBy: z.enum(['owner', 'visitor']).nullable(),
  ratedAt: z.string().nullable(),
  comment: z.string().nullable(),
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

/** The owner dismissed a group: it leaves the list until the question is asked (or rated down) again. */
export const unansweredDismissedSchema = z.object({
  dismissed: z.number().int(),
  groups: z.array(unansweredGroupViewSchema),
});
