import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor, Transaction } from './client';
import { conversations, messages, type MessageData } from './schema/index';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type ConversationKind = ConversationRow['kind'];

export interface ConversationKey {
  kind: ConversationKind;
  systemName?: string | null;
  sparkId?: string | null;
  testId?: string | null;
}

export class ConversationsRepository {
  constructor(private readonly db: Executor) {}

  /** The same repository acting inside `tx` (its statements commit or roll back with it). */
  withTx(tx: Transaction): ConversationsRepository {
    return new ConversationsRepository(tx);
  }

  async create(userId: string, key: ConversationKey): Promise<ConversationRow> {
    const [row] = await this.db
      .insert(conversations)
      .values({
        userId,
        kind: key.kind,
        systemName: key.systemName ?? null,
        sparkId: key.sparkId ?? null,
        testId: key.testId ?? null,
      })
      .returning();
    return row;
  }

  async findOwned(userId: string, id: string): Promise<ConversationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, id), eq(conversations.userId, userId)));
    return row;
  }

  async findById(id: string): Promise<ConversationRow | undefined> {
    const [row] = await this.db.select().from(conversations).where(eq(conversations.id, id));
    return row;
  }

  /** The newest conversation with this key (a Spark's builder chat, a test's chat…). */
  async latest(userId: string, key: ConversationKey): Promise<ConversationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.userId, userId),
          eq(conversations.kind, key.kind),
          key.systemName ? eq(conversations.systemName, key.systemName) : isNull(conversations.systemName),
          key.sparkId ? eq(conversations.sparkId, key.sparkId) : isNull(conversations.sparkId),
          key.testId ? eq(conversations.testId, key.testId) : isNull(conversations.testId),
        ),
      )
      .orderBy(desc(conversations.createdAt))
      .limit(1);
    return row;
  }

  /** The user's conversation with a system assistant that was last written to (about any Spark or none). */
  async lastActiveSystem(userId: string, systemName: string): Promise<ConversationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.userId, userId),
          eq(conversations.kind, 'system'),
          eq(conversations.systemName, systemName),
        ),
      )
      .orderBy(desc(conversations.updatedAt), desc(conversations.createdAt))
      .limit(1);
    return row;
  }

  /**
   * The newest conversation with this key when there is none. Looked up and created under a
   * transaction-scoped advisory lock on the key, so requests that open the same chat at once (a page loading
   * its history while a message is sent to it) all get one conversation, never one each.
   */
  async latestOrCreate(userId: string, key: ConversationKey): Promise<ConversationRow> {
    const lock = `conversation:${userId}:${key.kind}:${key.systemName ?? ''}:${key.sparkId ?? ''}:${key.testId ?? ''}`;
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lock}, 0))`);
      const repository = new ConversationsRepository(tx);
      return (await repository.latest(userId, key)) ?? (await repository.create(userId, key));
    });
  }

  async deleteWhere(userId: string, key: { testId: string }): Promise<void> {
    await this.db
      .delete(conversations)
      .where(and(eq(conversations.userId, userId), eq(conversations.testId, key.testId)));
  }

  async setState(id: string, state: Record<string, unknown>): Promise<void> {
    await this.db.update(conversations).set({ state, updatedAt: new Date() }).where(eq(conversations.id, id));
  }

  async addMessage(conversationId: string, type: MessageRow['type'], data: MessageData): Promise<MessageRow> {
    const [row] = await this.db.insert(messages).values({ conversationId, type, data }).returning();
    await this.touch(conversationId);
    return row;
  }

  /**
   * Locks a conversation against deletion until the transaction ends (`key share`; call it with
   * `withTx`), optionally only if it is the owner's in this Spark; answers whether it is there.
   */
  async hold(conversationId: string, owner?: { userId: string; sparkId: string }): Promise<boolean> {
    const [row] = await this.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(
        owner
          ? and(
              eq(conversations.id, conversationId),
              eq(conversations.userId, owner.userId),
              eq(conversations.sparkId, owner.sparkId),
            )
          : eq(conversations.id, conversationId),
      )
      .for('key share');
    return !!row;
  }

  /**
   * Posts a message in a conversation unless it is gone, in one transaction that holds it (a conversation
   * deleted meanwhile cannot fail the insert); answers the message, or undefined.
   */
  async postIfPresent(
    conversationId: string,
    type: MessageRow['type'],
    data: MessageData,
  ): Promise<MessageRow | undefined> {
    return this.db.transaction(async (tx) => {
      const inTx = this.withTx(tx);
      if (!(await inTx.hold(conversationId))) return undefined;
      return inTx.addMessage(conversationId, type, data);
    });
  }

  /** Whether a conversation holds a document message with this text (or for a file of this name). */
  async hasDocumentMessage(conversationId: string, content: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, conversationId),
          sql`${messages.data}->>'type' = 'document'`,
          sql`(${messages.data}->>'content' = ${content} OR ${messages.data}->>'name' = ${content})`,
        ),
      )
      .limit(1);
    return !!row;
  }

  /** Removes whole conversations with their messages (a website visitor's, by the visitor or the retention sweep). */
  async deleteByIds(ids: string[]): Promise<void> {
    if (ids.length > 0) await this.db.delete(conversations).where(inArray(conversations.id, ids));
  }

  /** Removes messages by id (an upload undone: the messages it posted, inside its transaction via `withTx`). */
  async deleteMessages(ids: string[]): Promise<void> {
    if (ids.length > 0) await this.db.delete(messages).where(inArray(messages.id, ids));
  }

  /** Removes a message no reply was ever asked for (handing it to the assistant failed). */
  async deleteMessage(conversationId: string, messageId: string): Promise<void> {
    await this.db.delete(messages).where(and(eq(messages.conversationId, conversationId), eq(messages.id, messageId)));
  }

  /** Writes the n-th reply to a human message once: a redelivered job finds it already there. */
  async addReply(
    conversationId: string,
    replyTo: string,
    replyIndex: number,
    type: MessageRow['type'],
    data: MessageData,
    id?: string,
  ): Promise<MessageRow> {
    const [row] = await this.db
      .insert(messages)
      .values({ ...(id ? { id } : {}), conversationId, type, data, replyTo, replyIndex })
      .onConflictDoNothing({ target: [messages.replyTo, messages.replyIndex] })
      .returning();
    if (row) {
      await this.touch(conversationId);
      return row;
    }
    const [existing] = await this.db
      .select()
      .from(messages)
      .where(and(eq(messages.replyTo, replyTo), eq(messages.replyIndex, replyIndex)));
    return existing;
  }

  async repliesTo(messageId: string): Promise<MessageRow[]> {
    return this.db.select().from(messages).where(eq(messages.replyTo, messageId)).orderBy(asc(messages.replyIndex));
  }

  async findMessage(conversationId: string, messageId: string): Promise<MessageRow | undefined> {
    const [row] = await this.db
      .select()
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.conversationId, conversationId)));
    return row;
  }

  async history(conversationId: string, limit = 500): Promise<MessageRow[]> {
    const rows = await this.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversationId))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(limit);
    return rows.reverse();
  }

  private async touch(id: string): Promise<void> {
    await this.db
      .update(conversations)
      .set({ updatedAt: sql`now()` })
      .where(eq(conversations.id, id));
  }
}
