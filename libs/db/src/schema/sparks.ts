import {
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { languageEnum, users } from './accounts';
import { createdAt, id, ts } from './common';

/** What a Spark keeps beyond its columns (docs/product.md §3 `options`, plus what the builder collects). */
export interface SparkOptions {
  isTest: boolean;
  initialMessage: string;
  level: 'PUBLIC';
  sysPrompt: string;
  language: 'es' | 'en';
  description?: string;
  business?: string;
  purpose?: string;
  tone?: string;
  /** Opening hours as the owner told the builder. */
  hours?: string;
  theme?: { palette?: { name: string; primary: string; secondary: string }; icon?: string };
  [key: string]: unknown;
}

export const sparks = pgTable(
  'sparks',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    pin: boolean('pin').notNull().default(false),
    type: text('type').notNull().default('DOC'),
    options: jsonb('options').$type<SparkOptions>().notNull(),
    /** How long its website visitors' conversations are kept after their last message (owner-set on /deploy). */
    visitorRetentionDays: integer('visitor_retention_days').notNull().default(90),
    /**
     * How many visitor messages its published widget answers in a day (UTC), owner-set on /deploy (issue 30):
     * past it visitors get 429 DEPLOYMENT_DAILY_LIMIT until the next day. Kept while unpublished.
     */
    widgetDailyLimit: integer('widget_daily_limit').notNull().default(200),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('sparks_user_created_idx').on(t.userId, t.createdAt),
    check('sparks_visitor_retention_range', sql`${t.visitorRetentionDays} BETWEEN 1 AND 730`),
    check('sparks_widget_daily_limit_range', sql`${t.widgetDailyLimit} BETWEEN 1 AND 10000`),
  ],
);

export const sparkTests = pgTable(
  'spark_tests',
  {
    id: id(),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    params: jsonb('params').$type<{ documentId?: string | null; waitResponse?: boolean }>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('spark_tests_spark_idx').on(t.sparkId, t.createdAt)],
);

export const testErrors = pgTable('test_errors', {
  id: id(),
  testId: uuid('test_id')
    .notNull()
    .references(() => sparkTests.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  error: text('error').notNull(),
  createdAt: createdAt(),
});

export const testVerdict = pgEnum('test_verdict', ['satisfactory', 'unsatisfactory']);
export const conversationKind = pgEnum('conversation_kind', ['system', 'builder', 'test', 'widget']);

/** A chat: with a system assistant, a Spark's builder, one of its tests, or a widget visitor. */
export const conversations = pgTable(
  'conversations',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: conversationKind('kind').notNull(),
    systemName: text('system_name'),
    sparkId: uuid('spark_id').references(() => sparks.id, { onDelete: 'cascade' }),
    testId: uuid('test_id').references(() => sparkTests.id, { onDelete: 'cascade' }),
    /** Flow-engine state of system and builder conversations. */
    state: jsonb('state').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * A judged test's transcript (issue 35 item 2): the test is removed, its conversation kept (test_id null) with the
     * test's name, the owner's verdict and when it was given, for the owner to read and rate.
     */
    title: text('title'),
    verdict: testVerdict('verdict'),
    judgedAt: ts('judged_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('conversations_user_idx').on(t.userId, t.kind, t.systemName),
    index('conversations_spark_idx').on(t.sparkId),
    index('conversations_test_idx').on(t.testId),
    // The retention sweep's look-up: visitors' conversations by their last activity.
    index('conversations_widget_updated_idx')
      .on(t.updatedAt)
      .where(sql`${t.kind} = 'widget'`),
  ],
);

export const messageType = pgEnum('message_type', ['human', 'ai', 'action']);

export interface MessageData {
  content: string;
  type?: string;
  documentId?: string;
  [key: string]: unknown;
}

export const messages = pgTable(
  'messages',
  {
    id: id(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    type: messageType('type').notNull(),
    data: jsonb('data').$type<MessageData>().notNull(),
    /** For replies: the human message answered, and their order; a retry cannot answer twice. */
    replyTo: uuid('reply_to'),
    replyIndex: integer('reply_index').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('messages_conversation_idx').on(t.conversationId, t.createdAt),
    uniqueIndex('messages_reply_key').on(t.replyTo, t.replyIndex),
  ],
);

export const feedbackRating = pgEnum('feedback_rating', ['up', 'down']);
/** Who rated an answer: the Spark's owner in a test chat, or a visitor in the widget. */
export const feedbackRater = pgEnum('feedback_rater', ['owner', 'visitor']);

/** A rating of an answer (issue 35): one per answer and rater, a second one replaces it. */
export const answerFeedback = pgTable(
  'answer_feedback',
  {
    id: id(),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    /** The rated answer; its rating goes with it (a visitor's conversation deleted). */
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    rater: feedbackRater('rater').notNull(),
    rating: feedbackRating('rating').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('answer_feedback_message_rater_key').on(t.messageId, t.rater),
    index('answer_feedback_spark_idx').on(t.sparkId, t.createdAt),
  ],
);

export const reviewReason = pgEnum('review_reason', ['notCovered', 'ratedDown']);
export interface ReviewSource {
  documentId: string;
  document: string;
  page: number;
}

/** Questions a Spark could not answer from its documents, or whose answer was rated down: what the owner should fix. */
export const unansweredQuestions = pgTable(
  'unanswered_questions',
  {
    id: id(),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    /**
     * The message that asked it; null once that message is gone (a test restarted or deleted): the
     * question stays the owner's to answer until the Spark itself is deleted (docs/decisions.md, 2026-11-28).
     */
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    question: text('question').notNull(),
    language: languageEnum('language').notNull(),
    /**
     * Similar questions share it: the question's stems in the Spark's text-search language, accents
     * folded, sorted, without duplicates or stop words (docs/decisions.md, "Unanswered questions").
     */
    groupKey: text('group_key').notNull().default(''),
    /** When the owner answered the question's group; the answer is the knowledge entry `documentId`. */
    answeredAt: ts('answered_at'),
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    /** Why it is on the owner's review list: not covered by the documents, or its answer rated down (issue 35). */
    reason: reviewReason('reason').notNull().default('notCovered'),
    /** What the Spark said, and the passages it came from, kept when the conversation goes (a judged test). */
    answerGiven: text('answer_given'),
    sources: jsonb('sources').$type<ReviewSource[]>().notNull().default([]),
    /** For a rated-down answer: who rated it down, when, and what they said was wrong. */
    ratedBy: feedbackRater('rated_by'),
    ratedAt: ts('rated_at'),
    comment: text('comment'),
    /** The owner dismissed it: it leaves the list (a new asking of the same question comes back). */
    dismissedAt: ts('dismissed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('unanswered_message_key').on(t.messageId),
    index('unanswered_spark_idx').on(t.sparkId),
    index('unanswered_spark_group_idx').on(t.sparkId, t.groupKey),
  ],
);

export const checkOrigin = pgEnum('check_origin', ['rating', 'fix', 'owner']);
export const checkStatus = pgEnum('check_status', ['pending', 'same', 'changed']);

/**
 * Answer checks (issue 35 item 3): a question with the answer the owner approved, asked again by the worker
 * (`checks.run`) whenever the Spark's knowledge changes.
 */
export const sparkChecks = pgTable(
  'spark_checks',
  {
    id: id(),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    /** The question's group key (as the review list's): one check per question, however it is worded. */
    questionKey: text('question_key').notNull(),
    expected: text('expected').notNull(),
    origin: checkOrigin('origin').notNull(),
    status: checkStatus('status').notNull().default('pending'),
    /** What the last run answered, and when it ran. */
    latest: text('latest'),
    checkedAt: ts('checked_at'),
    /** The changed answer last told in the Spark's chat: the same change is told once. */
    announced: text('announced'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('spark_checks_question_key').on(t.sparkId, t.questionKey)],
);

export const documentStatus = pgEnum('document_status', ['pending', 'inProgress', 'completed', 'error']);
/** A document is a file the owner uploaded, or an answer the owner wrote to an unanswered question. */
export const documentOrigin = pgEnum('document_origin', ['file', 'owner']);

export const documents = pgTable(
  'documents',
  {
    id: id(),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    /** The user's file name: display text only. */
    name: text('name').notNull(),
    /** What customers read as its source, given by the owner; null: the file name without its extension. */
    title: text('title'),
    /** Where the bytes are, under a generated id. */
    storageKey: text('storage_key').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    status: documentStatus('status').notNull().default('pending'),
    pages: integer('pages'),
    chars: integer('chars'),
    language: languageEnum('language'),
    origin: documentOrigin('origin').notNull().default('file'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('documents_spark_idx').on(t.sparkId, t.createdAt),
    uniqueIndex('documents_spark_sha_key').on(t.sparkId, t.sha256),
  ],
);

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** A passage of a document, indexed for full-text search in its language. */
export const documentChunks = pgTable(
  'document_chunks',
  {
    id: id(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    ord: integer('ord').notNull(),
    page: integer('page').notNull(),
    content: text('content').notNull(),
    /** 'spanish' or 'english': the text-search configuration the chunk was indexed with. */
    config: text('config').notNull(),
    tsv: tsvector('tsv').notNull(),
    /**
     * The business facts read from its lines at ingestion (opening hours, prices, contacts, payment:
     * `BusinessFact` of @sparks/core), null when it has none or was read before facts were kept.
     */
    facts: jsonb('facts').$type<object[]>(),
  },
  (t) => [
    uniqueIndex('document_chunks_doc_ord_key').on(t.documentId, t.ord),
    // (spark_id, id): the Spark's chunks oldest first, which retrieval samples.
    index('document_chunks_spark_idx').on(t.sparkId, t.id),
    // GIN on (spark_id, …) (btree_gin): a search reads only the Spark's entries, not every tenant's.
    index('document_chunks_tsv_idx').using('gin', t.sparkId, t.tsv),
    // Every word beginning of 3–4 letters as a lexeme (migrations 0004, 0005): prefix search with exact keys.
    index('document_chunks_prefix_idx').using('gin', t.sparkId, sql`chunk_prefixes(${t.tsv})`),
    // The few chunks of a Spark that hold facts, found without reading the others.
    index('document_chunks_facts_idx')
      .on(t.sparkId, t.id)
      .where(sql`${t.facts} IS NOT NULL`),
  ],
);
