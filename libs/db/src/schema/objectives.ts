import { boolean, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt, id, ts } from './common';

export type StepStatus = 'pending' | 'completed' | 'error';

/**
 * Progress through one set of objectives: a Spark's builder (key = the Spark's id), or the
 * deploy, profile and billing pages. The groups and steps are defined by the flows; only the
 * statuses live here.
 */
export const objectives = pgTable(
  'objectives',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    flow: text('flow').notNull(),
    sparkId: uuid('spark_id'),
    statuses: jsonb('statuses').$type<Record<string, StepStatus>>().notNull().default({}),
    isCompleted: boolean('is_completed').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('objectives_user_key').on(t.userId, t.key)],
);
