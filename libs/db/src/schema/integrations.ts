import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt, id, ts } from './common';
import { documents, sparks } from './sparks';

/**
 * A Spark's connection to a document-sharing service (issue 20: Microsoft 365 through Graph). One per
 * Spark and provider. The tokens are sealed with AES-256-GCM under `INTEGRATION_TOKEN_KEY`, bound to the
 * row's id, so a sealed value copied into another row does not open; they leave with the row on disconnect.
 */
export const integrationConnections = pgTable(
  'integration_connections',
  {
    id: id(),
    sparkId: uuid('spark_id')
      .notNull()
      .references(() => sparks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `microsoft`. */
    provider: text('provider').notNull(),
    /** What the user asked to connect: `sharepoint` or `onedrive`. */
    service: text('service').notNull(),
    accessTokenSealed: text('access_token_sealed').notNull(),
    refreshTokenSealed: text('refresh_token_sealed'),
    /** When the access token stops working (it is refreshed a few minutes before). */
    expiresAt: ts('expires_at').notNull(),
    /** The scopes the user granted, as the token endpoint answered them. */
    scopes: text('scopes').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('integration_connections_spark_provider_key').on(t.sparkId, t.provider),
    index('integration_connections_user_idx').on(t.userId),
  ],
);

/** A file imported from a connection: followed by the sync job (dedupe on the drive item's id and eTag). */
export const integrationItems = pgTable(
  'integration_items',
  {
    id: id(),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => integrationConnections.id, { onDelete: 'cascade' }),
    driveId: text('drive_id').notNull(),
    itemId: text('item_id').notNull(),
    eTag: text('e_tag'),
    /** Where the file is, as shown to the user: `Sites/Bakery/Menu.pdf`. */
    path: text('path').notNull(),
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    /** Why the last read was skipped (unsupported, too large), or null. */
    skipped: text('skipped'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integration_items_connection_item_key').on(t.connectionId, t.driveId, t.itemId)],
);

/** Where the sync job continues Graph's delta query for one drive of a connection. */
export const integrationDrives = pgTable(
  'integration_drives',
  {
    id: id(),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => integrationConnections.id, { onDelete: 'cascade' }),
    driveId: text('drive_id').notNull(),
    deltaLink: text('delta_link'),
    syncedAt: ts('synced_at'),
  },
  (t) => [uniqueIndex('integration_drives_connection_drive_key').on(t.connectionId, t.driveId)],
);
