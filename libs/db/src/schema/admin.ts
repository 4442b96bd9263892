import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './common';
import { users } from './accounts';

/** Users made admins with `npm run admin -- grant` (the others come from ADMIN_EMAILS). */
export const admins = pgTable('admins', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Who granted it: `cli:<os user>`. */
  grantedBy: text('granted_by').notNull(),
  createdAt: createdAt(),
});

/** Every admin action, with who did it: an admin's e-mail, `cli:<os user>`, or `self` (the settings assistant). */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: id(),
    actor: text('actor').notNull(),
    /** disable, enable, grant, revoke. */
    action: text('action').notNull(),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The target's e-mail at the time (kept when the user is deleted). */
    targetUsername: text('target_username').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('admin_audit_target_idx').on(t.targetUserId, t.createdAt)],
);
