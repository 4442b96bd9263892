import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { conversationKind, conversations, messages, sparks } from './sparks';
import { id } from './common';

/*
 * Analytics' rollup of tests' and website visitors' conversations (issue 35 item 4), written by the database itself:
 * the statement triggers of migration 0024 on `messages` (which also filled it from the messages already there), so
 * that no write path of the api or the worker can forget it. Times are kept by quarter hour (UTC): every time zone's
 * offset is a multiple of 15 minutes, so a quarter never straddles a local day or hour and the figures of any period
 * in any zone are sums. Counts outlive the conversations they count (a visitor's conversation deleted, by the visitor
 * or the retention sweep, leaves its numbers, not its words); they go with their Spark.
 */

/** A Spark's questions, answers and, of those, the not-covered ones, per quarter hour. */
export const analyticsQuarters = pgTable(
  'analytics_quarters',
  {
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    questions: integer('questions').notNull().default(0),
    answers: integer('answers').notNull().default(0),
    notCovered: integer('not_covered').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.sparkId, t.bucket] })],
);

/**
 * Each conversation that asked something, from its first question (`started_at`): what analytics counts as a
 * conversation, on the day it began; with its kind and, for a visitor's, the website it came from. The conversation
 * itself may be gone (`conversation_id` null).
 */
export const analyticsConversations = pgTable(
  'analytics_conversations',
  {
    id: id(),
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    kind: conversationKind('kind').notNull(),
    origin: text('origin'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('analytics_conversations_conversation_key').on(t.conversationId),
    // Migration 0024 makes it a covering index (INCLUDE kind and origin, which drizzle cannot say): a period's
    // conversations are read from the index alone.
    index('analytics_conversations_spark_idx').on(t.sparkId, t.startedAt),
  ],
);

/**
 * Every question asked in a test or on a website, with its group key (`question_group_key` in its Spark's language
 * when it was asked) computed once as it is written, for the top questions. Words, unlike counts, go with their
 * message.
 */
export const analyticsQuestions = pgTable(
  'analytics_questions',
  {
    messageId: uuid('message_id')
      .primaryKey()
      .references(() => messages.id, { onDelete: 'cascade' }),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    askedAt: timestamp('asked_at', { withTimezone: true }).notNull(),
    content: text('content').notNull(),
    groupKey: text('group_key').notNull(),
  },
  // Covering too (migration 0024): a period's keys (INCLUDE group_key), then the wordings of the keys asked most
  // (INCLUDE content).
  (t) => [
    index('analytics_questions_spark_idx').on(t.sparkId, t.askedAt),
    index('analytics_questions_key_idx').on(t.sparkId, t.groupKey, t.askedAt),
  ],
);
