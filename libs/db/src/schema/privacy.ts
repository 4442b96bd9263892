import { bigint, index, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt, id, ts } from './common';

export const accountExportStatus = pgEnum('account_export_status', ['pending', 'ready', 'error']);

/**
 * An export of everything of an account built by the worker (`account.export`), for an account too large to be
 * zipped while the browser waits (docs/decisions.md, "The owner's data: export…"). The zip is a stored file
 * (`exports/{id}.zip`); the e-mailed link carries a secret whose SHA-256 is kept here, valid until `expiresAt`.
 * The retention sweep removes the file and the row once it has expired; deleting the account removes both.
 */
export const accountExports = pgTable(
  'account_exports',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: accountExportStatus('status').notNull().default('pending'),
    storageKey: text('storage_key'),
    size: bigint('size', { mode: 'number' }),
    tokenHash: text('token_hash'),
    expiresAt: ts('expires_at'),
    error: text('error'),
    createdAt: createdAt(),
    readyAt: ts('ready_at'),
  },
  (t) => [
    index('account_exports_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('account_exports_token_key').on(t.tokenHash),
  ],
);

/**
 * What a deleted account left outside PostgreSQL, written in the transaction that deleted its rows and worked off by
 * the worker's `account.purge`: the stored files to remove, and every id or name its queued jobs and Redis keys may
 * carry. The row goes when the purge is done, so nothing of the account outlives it.
 */
export const accountPurges = pgTable('account_purges', {
  id: id(),
  identifiers: text('identifiers').array().notNull(),
  storageKeys: text('storage_keys').array().notNull(),
  createdAt: createdAt(),
});
