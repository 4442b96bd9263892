import { z } from 'zod';

import { chatMessageViewSchema } from './chat';

/**
 * Transcripts of judged tests (issue 35 item 2): when the owner answers "Was the test OK?", the test is removed and
 * its conversation, when it holds a question, is kept with the test's name and the verdict, for the owner to read and
 * rate. A Spark keeps its newest `MAX_TRANSCRIPTS_PER_SPARK` (rules.ts).
 */

/** The owner's answer to "Was the test OK?". */
export const TEST_VERDICTS = ['satisfactory', 'unsatisfactory'] as const;
export type TestVerdict = (typeof TEST_VERDICTS)[number];

/** DELETE /sparks/{sparkId}/tests/{testId}: with a verdict, the test's conversation is kept as its transcript. */
export const deleteTestQuery = z.object({ verdict: z.enum(TEST_VERDICTS).optional() });

export const transcriptParams = z.object({ sparkId: z.uuid(), conversationId: z.uuid() });

/** A transcript in the Spark's list: the test's name, the verdict, when it was given and how many questions it holds. */
export const transcriptSummarySchema = z.object({
  conversationId: z.string(),
  title: z.string(),
  verdict: z.enum(TEST_VERDICTS),
  judgedAt: z.string(),
  /** The owner's questions in it (the start keyword that opened the chat is not one). */
  questions: z.number().int(),
});
export type TranscriptSummary = z.infer<typeof transcriptSummarySchema>;

/** A transcript to read: its messages as the test chat's history gives them, each answer with the owner's rating. */
export const transcriptViewSchema = transcriptSummarySchema.omit({ questions: true }).extend({
  messages: z.array(chatMessageViewSchema),
});
export type TranscriptView = z.infer<typeof transcriptViewSchema>;

export const transcriptDeletedSchema = z.object({ deleted: z.literal(true) });
