import { and, asc, desc, eq, lt } from 'drizzle-orm';
import type { Executor, Transaction } from './client';
import { outboundEmails } from './schema/index';

export type OutboundEmail = typeof outboundEmails.$inferSelect;
export interface NewEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  language: string;
}

/** The row of an e-mail to write: the address as the mail is matched by (trimmed, lower case). */
const outboundRow = (email: NewEmail) => ({ ...email, to: email.to.trim().toLowerCase() });

export class EmailsRepository {
  constructor(private readonly db: Executor) {}

  /** The same repository acting inside `tx` (its statements commit or roll back with it). */
  withTx(tx: Transaction): EmailsRepository {
    return new EmailsRepository(tx);
  }

  async create(email: NewEmail): Promise<OutboundEmail> {
    const [row] = await this.db.insert(outboundEmails).values(outboundRow(email)).returning();
    return row;
  }

  /** Writes several e-mails in one statement (e.g. inside another repository's transaction: `withTx`); answers their ids. */
  async createMany(emails: NewEmail[]): Promise<string[]> {
    if (emails.length === 0) return [];
    const rows = await this.db
      .insert(outboundEmails)
      .values(emails.map(outboundRow))
      .returning({ id: outboundEmails.id });
    return rows.map((r) => r.id);
  }

  async findById(id: string): Promise<OutboundEmail | undefined> {
    const [row] = await this.db.select().from(outboundEmails).where(eq(outboundEmails.id, id));
    return row;
  }

  async markSent(id: string, transport: 'outbox' | 'smtp'): Promise<void> {
    // SMTP mail has left the building: forget its body (it may hold codes or reset links).
    const body = transport === 'smtp' ? { text: null, html: null } : {};
    await this.db
      .update(outboundEmails)
      .set({ status: 'sent', transport, sentAt: new Date(), error: null, ...body })
      .where(eq(outboundEmails.id, id));
  }

  /**
   * Mail still pending that was written before `before`, oldest first: what the e-mail sweep queues again
   * in case its `email.send` was never queued (the writer stopped between its commit and the queue).
   */
  async pendingBefore(before: Date, limit = 200): Promise<string[]> {
    const rows = await this.db
      .select({ id: outboundEmails.id })
      .from(outboundEmails)
      .where(and(eq(outboundEmails.status, 'pending'), lt(outboundEmails.createdAt, before)))
      .orderBy(asc(outboundEmails.createdAt))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  async markError(id: string, error: string): Promise<void> {
    await this.db.update(outboundEmails).set({ status: 'error', error }).where(eq(outboundEmails.id, id));
  }

  /** The dev outbox: mail kept instead of sent to one recipient, newest first. */
  async outbox(to: string, limit = 50): Promise<OutboundEmail[]> {
    return this.db
      .select()
      .from(outboundEmails)
      .where(and(eq(outboundEmails.transport, 'outbox'), eq(outboundEmails.to, to.toLowerCase())))
      .orderBy(desc(outboundEmails.createdAt), desc(outboundEmails.id))
      .limit(limit);
  }
}
