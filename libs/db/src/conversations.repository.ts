import { isStartKeyword, type TestVerdict } from '@sparks/contracts';
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor, Transaction } from './client';
import { conversations, messages, type MessageData } from './schema/index';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type ConversationKind = ConversationRow['kind'];

/** A judged test's transcript (issue 35 item 2): its conversation, kept with the test's name and the verdict. */
export interface TranscriptRow {
  id: string;
  title: string;
  verdict: TestVerdict;
  judgedAt: Date;
}

/** A human message that asks something: not empty, not the start keyword that opened the chat. */
const isQuestion = (content: string) => content.trim() !== '' && !isStartKeyword(content);

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

  // — judged tests' transcripts (issue 35 item 2) —

  /**
   * Keeps the newest conversation of a test that holds a question as the test's transcript, before the test is
   * removed (call it with `withTx` in the transaction that removes it): the conversation leaves the test (`test_id`
   * null, so the test's cascade does not take it) with the test's name, the verdict and when it was given. Then only
   * the Spark's newest `max` transcripts stay. Transcripts of a Spark are kept one at a time (an advisory lock), so
   * two at once cannot keep more than `max`. Answers the kept conversation, or undefined when the test's
   * conversations asked nothing.
   */
  async keepTranscript(v: {
    userId: string;
    sparkId: string;
    testId: string;
    title: string;
    verdict: TestVerdict;
    max: number;
  }): Promise<string | undefined> {
    const humans = await this.db
      .select({ conversationId: conversations.id, content: sql<string | null>`${messages.data}->>'content'` })
      .from(conversations)
      .innerJoin(messages, eq(messages.conversationId, conversations.id))
      .where(
        and(
          eq(conversations.userId, v.userId),
          eq(conversations.kind, 'test'),
          eq(conversations.testId, v.testId),
          eq(messages.type, 'human'),
        ),
      )
      .orderBy(desc(conversations.createdAt), desc(conversations.id));
    const kept = humans.find((m) => isQuestion(m.content ?? ''))?.conversationId;
    if (!kept) return undefined;
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`transcripts:${v.sparkId}`}, 0))`);
    await this.db
      .update(conversations)
      .set({ testId: null, title: v.title, verdict: v.verdict, judgedAt: sql`now()` })
      .where(eq(conversations.id, kept));
    const older = await this.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(this.transcriptsOf(v.userId, v.sparkId))
      .orderBy(desc(conversations.judgedAt), desc(conversations.id))
      .offset(v.max);
    await this.deleteByIds(older.map((c) => c.id));
    return kept;
  }

  /** The transcripts of the user's Spark, newest first, each with how many questions it holds. */
  async transcripts(userId: string, sparkId: string): Promise<Array<TranscriptRow & { questions: number }>> {
    const rows = await this.db
      .select({
        id: conversations.id,
        title: conversations.title,
        verdict: conversations.verdict,
        judgedAt: conversations.judgedAt,
      })
      .from(conversations)
      .where(this.transcriptsOf(userId, sparkId))
      .orderBy(desc(conversations.judgedAt), desc(conversations.id));
    if (rows.length === 0) return [];
    const humans = await this.db
      .select({ conversationId: messages.conversationId, content: sql<string | null>`${messages.data}->>'content'` })
      .from(messages)
      .where(
        and(
          inArray(
            messages.conversationId,
            rows.map((r) => r.id),
          ),
          eq(messages.type, 'human'),
        ),
      );
    const questions = new Map<string, number>();
    for (const m of humans) {
      if (isQuestion(m.content ?? '')) questions.set(m.conversationId, (questions.get(m.conversationId) ?? 0) + 1);
    }
    return rows.map((r) => ({ ...transcriptOf(r), questions: questions.get(r.id) ?? 0 }));
  }

  /** One transcript of the user's Spark. */
  async transcript(userId: string, sparkId: string, id: string): Promise<TranscriptRow | undefined> {
    const [row] = await this.db
      .select({
        id: conversations.id,
        title: conversations.title,
        verdict: conversations.verdict,
        judgedAt: conversations.judgedAt,
      })
      .from(conversations)
      .where(and(eq(conversations.id, id), this.transcriptsOf(userId, sparkId)));
    return row && transcriptOf(row);
  }

  /** Deletes a transcript of the user's Spark, with its messages and their ratings; false when there is none. */
  async deleteTranscript(userId: string, sparkId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(conversations)
      .where(and(eq(conversations.id, id), this.transcriptsOf(userId, sparkId)))
      .returning({ id: conversations.id });
    return rows.length === 1;
  }

  /** A Spark's transcripts: its test conversations kept without their test, judged. */
  private transcriptsOf(userId: string, sparkId: string) {
    return and(
      eq(conversations.userId, userId),
      eq(conversations.sparkId, sparkId),
      eq(conversations.kind, 'test'),
      isNull(conversations.testId),
      isNotNull(conversations.verdict),
      isNotNull(conversations.judgedAt),
    );
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

/** A transcript's row as read (its columns are set together when it is kept). */
function transcriptOf(row: {
  id: string;
  title: string | null;
  verdict: TestVerdict | null;
  judgedAt: Date | null;
}): TranscriptRow {
  // `transcriptsOf` reads only conversations with a verdict and a date; the title is the test's name.
  if (!row.verdict || !row.judgedAt) throw new Error(`conversation ${row.id} is not a judged test's transcript`);
  return { id: row.id, title: row.title ?? '', verdict: row.verdict, judgedAt: row.judgedAt };
}
