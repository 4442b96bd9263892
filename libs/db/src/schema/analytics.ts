import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { conversationKind, conversations, messages, sparks } from './sparks';

/**
 * Analytics' own copy of the activity of tests' and website visitors' conversations (issue 35 item 4): a row per
 * conversation and quarter hour (UTC) with its questions, its answers and, of those, the not-covered ones. Every time
 * zone's offset is a multiple of 15 minutes, so a quarter never straddles a local day or hour: the figures of any
 * period in any zone are sums of these rows. Written by the database itself (the statement triggers of migration
 * 0024 on `messages`, which also filled it from the messages already there), so that no write path can forget it; a
 * conversation deleted takes its rows with it.
 */
export const analyticsQuarters = pgTable(
  'analytics_quarters',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    kind: conversationKind('kind').notNull(),
    /** The website of a visitor's conversation (`visitor_conversations.origin` when its messages were written). */
    origin: text('origin'),
    questions: integer('questions').notNull().default(0),
    answers: integer('answers').notNull().default(0),
    notCovered: integer('not_covered').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.bucket] }),
    // Migration 0024 makes it a covering index (INCLUDE the counted columns, which drizzle cannot say): a period's rows
    // are read from the index alone (bench/analytics.mjs).
    index('analytics_quarters_spark_idx').on(t.sparkId, t.bucket),
  ],
);

/**
 * Every question asked in a test or on a website, with its group key (`question_group_key` in its Spark's language
 * when it was asked) computed once as it is written, for the top questions. Written by the same triggers.
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
  // Covering too (migration 0024: INCLUDE group_key and content).
  (t) => [index('analytics_questions_spark_idx').on(t.sparkId, t.askedAt)],
);
