import { sql } from 'drizzle-orm';
import { index, pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id } from './common';

export const emailStatus = pgEnum('email_status', ['pending', 'sent', 'error']);
export const emailTransport = pgEnum('email_transport', ['outbox', 'smtp']);

/**
 * Every e-mail the product sends. The api writes a row and enqueues `email.send {emailId}`;
 * the worker delivers it by SMTP (then forgets the body) or, in the embedded default, keeps it
 * in the dev outbox.
 */
export const outboundEmails = pgTable(
  'outbound_emails',
  {
    id: id(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text'),
    html: text('html'),
    language: text('language').notNull().default('en'),
    status: emailStatus('status').notNull().default('pending'),
    transport: emailTransport('transport'),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('outbound_emails_to_created_idx').on(t.to, t.createdAt),
    // The e-mail sweep's look-up: only the few rows still pending.
    index('outbound_emails_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);
