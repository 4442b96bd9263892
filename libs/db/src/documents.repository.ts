import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { textSearchConfig, type TextSearchConfig } from '@sparks/core';
import { uuidv7 } from 'uuidv7';
import { openChunkWriter, type ChunkWriter } from './chunk-writer';
import type { Database, Transaction } from './client';
import { ConversationsRepository, type MessageRow } from './conversations.repository';
import { NO_PLAN_LIMIT, planOfUser } from './plan-limits';
import { documentChunks, documents, messages, sparks, type MessageData } from './schema/index';

export type DocumentRow = typeof documents.$inferSelect;
export type DocumentStatus = DocumentRow['status'];
export type { TextSearchConfig };

export interface NewDocument {
  name: string;
  storageKey: string;
  size: number;
  sha256: string;
  conversationId: string | null;
}

/** A chat message to write. */
export interface NewMessage {
  type: MessageRow['type'];
  data: MessageData;
}

/**
 * The messages an upload posts in the conversation it came from, written in the same transaction
 * as what the upload changes (given the document as it is then), or not at all.
 */
export interface UploadAnnouncement {
  conversationId: string;
  messages: (document: DocumentRow) => NewMessage[];
}

export type CreateDocumentResult =
  | { kind: 'created'; document: DocumentRow; messages: MessageRow[] }
  | { kind: 'duplicate'; document: DocumentRow }
  | { kind: 'not-found' }
  | { kind: 'full'; limit: number };

/** What `announceDuplicate` did; `retried` holds what to put back if the retry cannot be queued. */
export type DuplicateResult =
  | {
      kind: 'announced';
      document: DocumentRow;
      messages: MessageRow[];
      retried?: { error: string | null; conversationId: string | null };
    }
  | { kind: 'not-found' };

export interface NewChunk {
  page: number;
  content: string;
  /** The business facts of its lines (`BusinessFact` of @sparks/core), when it has any. */
  facts?: readonly object[];
}

/** A chat message written together with the document's final state, so a redelivered job cannot post twice. */
export interface OutcomeMessage {
  conversationId: string;
  type: MessageRow['type'];
  data: MessageData;
}

/** What the worker found in a document it read. */
export interface DocumentFigures {
  pages: number;
  chars: number;
  language: 'es' | 'en';
  config: TextSearchConfig;
}

export interface CompletedDocument {
  document: DocumentRow;
  message?: MessageRow;
}

/** Writes messages in a conversation the transaction holds, in order (their ids and times follow it). */
async function insertMessages(
  conversations: ConversationsRepository,
  conversationId: string,
  list: NewMessage[],
): Promise<MessageRow[]> {
  const rows: MessageRow[] = [];
  for (const m of list) rows.push(await conversations.addMessage(conversationId, m.type, m.data));
  return rows;
}

/** An answer the owner wrote to a Spark's unanswered question, kept as knowledge of the Spark. */
export interface OwnerAnswer {
  sparkId: string;
  userId: string;
  question: string;
  answer: string;
  language: 'es' | 'en';
}

/**
 * What another repository writes in `documents` and `document_chunks` inside its own transaction
 * (`DocumentsRepository.withTx`): the owner's answers (`UnansweredRepository`).
 */
export class DocumentsInTransaction {
  constructor(private readonly tx: Transaction) {}

  /**
   * Adds an owner's answer as a knowledge entry of the Spark: a document of origin `owner`, already
   * completed, with one chunk (the question then the answer) indexed like any passage, so that
   * retrieval finds it by the question's words. Answers the document's id.
   */
  async addOwnerAnswer(v: OwnerAnswer): Promise<string> {
    const id = uuidv7();
    const content = `${v.question}\n${v.answer}`;
    const config = textSearchConfig(v.language);
    await this.tx.insert(documents).values({
      id,
      sparkId: v.sparkId,
      userId: v.userId,
      name: v.question,
      // No file: the key names the entry; nothing is ever stored under it.
      storageKey: `owner-answers/${id}`,
      size: Buffer.byteLength(content),
      sha256: createHash('sha256').update(`owner-answer:${id}`).digest('hex'),
      status: 'completed',
      pages: 1,
      chars: content.length,
      language: v.language,
      origin: 'owner',
    });
    await this.tx.insert(documentChunks).values({
      documentId: id,
      sparkId: v.sparkId,
      ord: 0,
      page: 1,
      content,
      config,
      tsv: sql`to_tsvector(${config}::regconfig, ${content})`,
    });
    return id;
  }

  /** Removes owner's answers (origin `owner`) of the Spark by id; their chunks go with them (ON DELETE CASCADE). How many went. */
  async deleteOwnerAnswers(sparkId: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const removed = await this.tx
      .delete(documents)
      .where(and(eq(documents.sparkId, sparkId), eq(documents.origin, 'owner'), inArray(documents.id, ids)))
      .returning({ id: documents.id });
    return removed.length;
  }
}

/** Documents of a Spark and their indexed chunks. Reads for users name the owner; the worker acts by id. */
export class DocumentsRepository {
  constructor(
    private readonly db: Database,
    /** Posts the messages of uploads and outcomes, inside the document's transaction (`withTx`). */
    private readonly conversations = new ConversationsRepository(db),
  ) {}

  /**
   * The writes other repositories make in documents inside their own transaction `tx`. Not the whole
   * repository, unlike `ConversationsRepository.withTx`: its transactions (and the chunk writer's, which
   * streams on a connection of its own) begin on the pool.
   */
  withTx(tx: Transaction): DocumentsInTransaction {
    return new DocumentsInTransaction(tx);
  }

  /**
   * Adds a document unless the Spark already holds `max` of them (`'plan'`: the `limit_documents` of
   * the owner's plan in the catalogue, read inside the transaction), with the messages of `announce`
   * in the same transaction (not found when its conversation is not the owner's in this Spark).
   * The Spark row is locked so that two concurrent uploads cannot both see room for one more; the
   * same file (same SHA-256) in the same Spark is answered with the document that already holds it
   * (nothing written: see `announceDuplicate`).
   */
  async createWithinLimit(
    userId: string,
    sparkId: string,
    values: NewDocument,
    max: number | 'plan',
    announce?: UploadAnnouncement,
  ): Promise<CreateDocumentResult> {
    return this.db.transaction(async (tx) => {
      const [spark] = await tx
        .select({ id: sparks.id })
        .from(sparks)
        .where(and(eq(sparks.id, sparkId), eq(sparks.userId, userId)))
        .for('update');
      if (!spark) return { kind: 'not-found' };
      if (announce && !(await this.conversations.withTx(tx).hold(announce.conversationId, { userId, sparkId }))) {
        return { kind: 'not-found' };
      }
      const [existing] = await tx
        .select()
        .from(documents)
        .where(and(eq(documents.sparkId, sparkId), eq(documents.sha256, values.sha256)));
      if (existing) return { kind: 'duplicate', document: existing };
      const limit = max === 'plan' ? ((await planOfUser(tx, userId))?.limitDocuments ?? NO_PLAN_LIMIT) : max;
      // The owner's written answers (origin `owner`) are not files: they do not take a file's place.
      const [{ n }] = await tx
        .select({ n: count() })
        .from(documents)
        .where(and(eq(documents.sparkId, sparkId), eq(documents.origin, 'file')));
      if (n >= limit) return { kind: 'full', limit };
      const [document] = await tx
        .insert(documents)
        .values({ sparkId, userId, ...values, status: 'pending' })
        .returning();
      const posted = announce
        ? await insertMessages(this.conversations.withTx(tx), announce.conversationId, announce.messages(document))
        : [];
      return { kind: 'created', document, messages: posted };
    });
  }

  /**
   * The same file uploaded again, in one transaction: a document that failed (`retry`) goes back to
   * `pending`; one still waiting or being read reports to the new conversation; the messages of
   * `announce` are written. Not found when the document or the conversation is gone.
   */
  async announceDuplicate(
    userId: string,
    documentId: string,
    options: { retry: boolean; announce?: UploadAnnouncement },
  ): Promise<DuplicateResult> {
    return this.db.transaction(async (tx) => {
      const [doc] = await tx
        .select()
        .from(documents)
        .where(and(eq(documents.id, documentId), eq(documents.userId, userId)))
        .for('update');
      if (!doc) return { kind: 'not-found' };
      const { announce } = options;
      if (
        announce &&
        !(await this.conversations.withTx(tx).hold(announce.conversationId, { userId, sparkId: doc.sparkId }))
      ) {
        return { kind: 'not-found' };
      }
      let document = doc;
      let retried: { error: string | null; conversationId: string | null } | undefined;
      if (doc.status === 'error' && options.retry) {
        retried = { error: doc.error, conversationId: doc.conversationId };
        [document] = await tx
          .update(documents)
          .set({
            status: 'pending',
            error: null,
            conversationId: announce?.conversationId ?? doc.conversationId,
            updatedAt: new Date(),
          })
          .where(eq(documents.id, doc.id))
          .returning();
      } else if (announce && (doc.status === 'pending' || doc.status === 'inProgress')) {
        // Where the "read" message goes.
        [document] = await tx
          .update(documents)
          .set({ conversationId: announce.conversationId, updatedAt: new Date() })
          .where(eq(documents.id, doc.id))
          .returning();
      }
      const posted = announce
        ? await insertMessages(this.conversations.withTx(tx), announce.conversationId, announce.messages(document))
        : [];
      return { kind: 'announced', document, messages: posted, retried };
    });
  }

  /**
   * Undoes a new upload that could not be finished (its file not stored or its job not queued):
   * the document and the messages it posted go, in one transaction.
   */
  async discardUpload(documentId: string, messageIds: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.conversations.withTx(tx).deleteMessages(messageIds);
      await tx.delete(documents).where(eq(documents.id, documentId));
    });
  }

  /**
   * Undoes the retry of `announceDuplicate` whose job could not be queued: the document is put back
   * as it was (unless a worker took it meanwhile) and the messages it posted go.
   */
  async undoRetry(
    documentId: string,
    previous: { error: string | null; conversationId: string | null },
    messageIds: string[],
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.conversations.withTx(tx).deleteMessages(messageIds);
      await tx
        .update(documents)
        .set({ status: 'error', error: previous.error, conversationId: previous.conversationId, updatedAt: new Date() })
        .where(and(eq(documents.id, documentId), eq(documents.status, 'pending')));
    });
  }

  /**
   * The plan's document count for a Spark (`limit_documents` of the owner's plan) and how many files it holds: for a
   * check before work that would add one (the document-sharing picker). `createWithinLimit` stays the rule.
   */
  async room(userId: string, sparkId: string): Promise<{ limit: number; used: number }> {
    const limit = (await planOfUser(this.db, userId))?.limitDocuments ?? NO_PLAN_LIMIT;
    const [{ n }] = await this.db
      .select({ n: count() })
      .from(documents)
      .where(and(eq(documents.sparkId, sparkId), eq(documents.origin, 'file')));
    return { limit, used: n };
  }

  /**
   * A document's file replaced by a new version (a file imported from SharePoint or OneDrive that changed): the new
   * file's key, size and hash, and the document back to `pending` to be read again; its chunks stay until the new
   * reading replaces them. `duplicate` when the Spark holds another document with the same content, `not-found` when
   * the document is gone. Answers the row as it was before (whose file is to be deleted).
   */
  async replaceFile(
    documentId: string,
    values: NewDocument,
  ): Promise<
    { kind: 'replaced'; previous: DocumentRow; document: DocumentRow } | { kind: 'duplicate' } | { kind: 'not-found' }
  > {
    return this.db.transaction(async (tx) => {
      const [previous] = await tx.select().from(documents).where(eq(documents.id, documentId)).for('update');
      if (!previous) return { kind: 'not-found' as const };
      const [other] = await tx
        .select({ id: documents.id })
        .from(documents)
        .where(and(eq(documents.sparkId, previous.sparkId), eq(documents.sha256, values.sha256)));
      if (other && other.id !== documentId) return { kind: 'duplicate' as const };
      const [document] = await tx
        .update(documents)
        .set({ ...values, status: 'pending', error: null, updatedAt: new Date() })
        .where(eq(documents.id, documentId))
        .returning();
      return { kind: 'replaced' as const, previous, document };
    });
  }

  /**
   * Documents not finished (`pending` or `inProgress`) and untouched since `before`, oldest first:
   * for the sweep that makes sure each of them has a job or ends.
   */
  async listUnfinished(before: Date, limit: number): Promise<DocumentRow[]> {
    return this.db
      .select()
      .from(documents)
      .where(and(inArray(documents.status, ['pending', 'inProgress']), lte(documents.updatedAt, before)))
      .orderBy(asc(documents.updatedAt))
      .limit(limit);
  }

  async findOwned(userId: string, sparkId: string, documentId: string): Promise<DocumentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(documents)
      .where(and(eq(documents.id, documentId), eq(documents.sparkId, sparkId), eq(documents.userId, userId)));
    return row;
  }

  /** For the worker, which acts on a document it was handed by id. */
  async findById(documentId: string): Promise<DocumentRow | undefined> {
    const [row] = await this.db.select().from(documents).where(eq(documents.id, documentId));
    return row;
  }

  async listForSpark(userId: string, sparkId: string): Promise<DocumentRow[]> {
    return this.db
      .select()
      .from(documents)
      .where(and(eq(documents.sparkId, sparkId), eq(documents.userId, userId), eq(documents.origin, 'file')))
      .orderBy(desc(documents.createdAt), desc(documents.id));
  }

  /** Removes the document; its chunks go with it (foreign key). Answers the removed row. */
  async deleteOwned(userId: string, sparkId: string, documentId: string): Promise<DocumentRow | undefined> {
    const [row] = await this.db
      .delete(documents)
      .where(and(eq(documents.id, documentId), eq(documents.sparkId, sparkId), eq(documents.userId, userId)))
      .returning();
    return row;
  }

  /** pending → inProgress; answers undefined when the document is gone or already finished. */
  async markInProgress(documentId: string): Promise<DocumentRow | undefined> {
    const [row] = await this.db
      .update(documents)
      .set({ status: 'inProgress', updatedAt: new Date() })
      .where(and(eq(documents.id, documentId), inArray(documents.status, ['pending', 'inProgress'])))
      .returning();
    return row;
  }

  /**
   * Writes the chunks, the document's figures and the owner's message in one transaction: the old
   * chunks of the document (from an interrupted or repeated run) are replaced, never added to.
   * Answers undefined when the document was deleted meanwhile (then nothing is written).
   */
  complete(
    documentId: string,
    result: DocumentFigures & { chunks: NewChunk[] },
    message?: Omit<OutcomeMessage, 'conversationId'>,
  ): Promise<CompletedDocument | undefined> {
    return this.openChunkWriter(documentId).complete(result, message, result.chunks);
  }

  /**
   * `complete`, with the chunks written while the document is still being read: one transaction,
   * begun with the first chunks (or at `complete`), that removes the document's old chunks, writes
   * each batch as it is handed over (one statement at a time, batches handed over meanwhile going
   * together), and finally completes the document — or, aborted, writes nothing. The chunks are seen
   * by no one before the end, so an interrupted run leaves nothing behind. It holds the document
   * row from its start (locked before its chunks, as a deletion takes them), so deleting the
   * document waits for it. Every writer must end with `complete` or `abort`.
   */
  openChunkWriter(documentId: string): ChunkWriter {
    return openChunkWriter(this.db, documentId, (tx, doc, figures, message) =>
      this.finishIn(tx, doc, figures, message),
    );
  }

  private async finishIn(
    tx: Transaction,
    doc: DocumentRow,
    figures: DocumentFigures,
    message: Omit<OutcomeMessage, 'conversationId'> | undefined,
  ): Promise<CompletedDocument> {
    const [document] = await tx
      .update(documents)
      .set({
        status: 'completed',
        pages: figures.pages,
        chars: figures.chars,
        language: figures.language,
        error: null,
        updatedAt: new Date(),
      })
      .where(eq(documents.id, doc.id))
      .returning();
    const posted = message ? await this.postIn(tx, doc.conversationId, message) : undefined;
    return { document, message: posted };
  }

  /**
   * Marks the document `error` with a reason code (unless it was completed meanwhile) and posts the
   * owner's message with it. Answers undefined when there was nothing to mark.
   */
  async fail(
    documentId: string,
    error: string,
    figures: { pages?: number | null },
    message?: Omit<OutcomeMessage, 'conversationId'>,
  ): Promise<{ document: DocumentRow; message?: MessageRow } | undefined> {
    return this.db.transaction(async (tx) => {
      const [doc] = await tx.select().from(documents).where(eq(documents.id, documentId)).for('update');
      if (!doc || doc.status === 'completed' || doc.status === 'error') return undefined;
      await tx.delete(documentChunks).where(eq(documentChunks.documentId, documentId));
      const [document] = await tx
        .update(documents)
        .set({ status: 'error', error, pages: figures.pages ?? null, chars: null, updatedAt: new Date() })
        .where(eq(documents.id, documentId))
        .returning();
      const posted = message ? await this.postIn(tx, doc.conversationId, message) : undefined;
      return { document, message: posted };
    });
  }

  /** The chunks of a document in reading order (what the Spark read), optionally of some pages only. */
  async chunksOf(
    documentId: string,
    pages?: { from: number; to: number },
  ): Promise<Array<{ page: number; ord: number; content: string }>> {
    return this.db
      .select({ page: documentChunks.page, ord: documentChunks.ord, content: documentChunks.content })
      .from(documentChunks)
      .where(
        pages
          ? and(
              eq(documentChunks.documentId, documentId),
              gte(documentChunks.page, pages.from),
              lte(documentChunks.page, pages.to),
            )
          : eq(documentChunks.documentId, documentId),
      )
      .orderBy(asc(documentChunks.ord));
  }

  /** The pages of a document that have at least one chunk (the others had no text). */
  async pagesWithText(documentId: string): Promise<number[]> {
    const rows = await this.db
      .selectDistinct({ page: documentChunks.page })
      .from(documentChunks)
      .where(eq(documentChunks.documentId, documentId))
      .orderBy(asc(documentChunks.page));
    return rows.map((r) => r.page);
  }

  async countChunks(documentId: string): Promise<number> {
    const [{ n }] = await this.db
      .select({ n: count() })
      .from(documentChunks)
      .where(eq(documentChunks.documentId, documentId));
    return n;
  }

  /** Whether the Spark has at least one document it has read: the builder's knowledge step. */
  async hasCompletedDocument(sparkId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.sparkId, sparkId), eq(documents.status, 'completed'), eq(documents.origin, 'file')))
      .limit(1);
    return !!row;
  }

  /** Whether a conversation holds a document message with this text (or for a file of this name). */
  async conversationHasDocumentMessage(conversationId: string, content: string): Promise<boolean> {
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

  /**
   * Posts a message in a conversation unless it is gone (for the worker's notices about a document, e.g. the
   * sync of a document-sharing connection); answers the message, or undefined.
   */
  async post(
    conversationId: string | null,
    message: Omit<OutcomeMessage, 'conversationId'>,
  ): Promise<MessageRow | undefined> {
    if (!conversationId) return undefined;
    return this.db.transaction((tx) => this.postIn(tx, conversationId, message));
  }

  private async postIn(
    tx: Transaction,
    conversationId: string | null,
    message: Omit<OutcomeMessage, 'conversationId'>,
  ): Promise<MessageRow | undefined> {
    if (!conversationId) return undefined;
    const conversations = this.conversations.withTx(tx);
    // Held until the end, so that a conversation deleted meanwhile cannot fail the insert.
    if (!(await conversations.hold(conversationId))) return undefined;
    return conversations.addMessage(conversationId, message.type, message.data);
  }
}
