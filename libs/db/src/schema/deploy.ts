import { index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt, id, ts } from './common';
import { conversations, sparks } from './sparks';

/**
 * A published Spark (one row per Spark while it is published). The deploy token is public (it sits in
 * the snippet) but only its SHA-256 is kept: it is looked up by hash, and rotating replaces the hash,
 * so the old token stops working at once. `rotation` goes up on every rotation and is signed into
 * visitor tokens, so a rotation also ends every visitor session issued under the old token.
 */
export const deployments = pgTable(
  'deployments',
  {
    id: id(),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /**
     * The token sealed (AES-GCM) under the server's secret, so the owner can see the snippet again and
     * a connecting WordPress site can be given it. If the secret changes, the token still works (by
     * hash) but cannot be shown again until it is rotated.
     */
    tokenSealed: text('token_sealed').notNull(),
    /** The token's first characters, to tell tokens apart on screen. */
    tokenPrefix: text('token_prefix').notNull(),
    rotation: integer('rotation').notNull().default(0),
    channel: text('channel').$type<'widget' | 'pulse'>().notNull().default('widget'),
    position: text('position').$type<'right' | 'left'>().notNull().default('right'),
    publishedAt: createdAt(),
    /** When the widget first asked for its configuration from an allowed site, and which. */
    firstSeenAt: ts('first_seen_at'),
    firstSeenOrigin: text('first_seen_origin'),
  },
  (t) => [
    uniqueIndex('deployments_spark_key').on(t.sparkId),
    uniqueIndex('deployments_token_hash_key').on(t.tokenHash),
    index('deployments_user_idx').on(t.userId),
  ],
);

/** The sites (exact origins, `https://shop.example`) where a Spark's widget may run. */
export const allowedOrigins = pgTable(
  'allowed_origins',
  {
    id: id(),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    /** `owner`: listed in the deploy assistant; `pulse`: added by a WordPress site presenting a site key. */
    source: text('source').$type<'owner' | 'pulse'>().notNull().default('owner'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('allowed_origins_spark_origin_key').on(t.sparkId, t.origin)],
);

/** One-time keys a WordPress site presents to connect (adds its origin to the allow-list). Hashed. */
export const siteKeys = pgTable(
  'site_keys',
  {
    id: id(),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    usedOrigin: text('used_origin'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('site_keys_hash_key').on(t.keyHash), index('site_keys_spark_idx').on(t.sparkId)],
);

/** A browser that talks to a published Spark (no account; identified by its signed visitor token). */
export const visitors = pgTable(
  'visitors',
  {
    id: id(),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    /** An address the visitor left for the owner (when the Spark could not answer: no interactions left). */
    contactEmail: text('contact_email'),
    contactAt: ts('contact_at'),
  },
  (t) => [index('visitors_spark_idx').on(t.sparkId)],
);

/**
 * Which visitor a widget conversation belongs to. The conversation itself is a `widget` row of
 * `conversations` owned by the Spark's owner (so the owner reads it, the worker answers it and it
 * goes when the Spark goes); only its visitor may read or write it through the public API.
 */
export const visitorConversations = pgTable(
  'visitor_conversations',
  {
    conversationId: uuid('conversation_id')
      .primaryKey()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    visitorId: uuid('visitor_id')
      .notNull()
      .references(() => visitors.id, { onDelete: 'cascade' }),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    origin: text('origin'),
    createdAt: createdAt(),
  },
  (t) => [
    index('visitor_conversations_visitor_idx').on(t.visitorId, t.createdAt),
    index('visitor_conversations_spark_idx').on(t.sparkId, t.createdAt),
  ],
);
