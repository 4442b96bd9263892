import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { textSearchConfig, type TextSearchConfig } from '@sparks/core';
import { uuidv7 } from 'uuidv7';
import { openChunkWriter, type ChunkWriter } from './chunk-writer';
import type { Database, Executor, Transaction } from './client';
import type { MessageRow } from './conversations.repository';
import { documentChunks, documents, sparks } from './schema/index';

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

/**
 * What the caller writes in the transaction that adds or takes back a document (its chat messages: see
 * `DocumentIntake` of @sparks/domain), and whether the write may go on at all.
 */
export interface DocumentTxHooks {
  /** Asked first (after the row is locked), given the document's Spark: false answers `not-found` and writes nothing. */
  admit?: (tx: Transaction, sparkId: string) => Promise<boolean>;
  /** Written with the document as it is then, in the same transaction; what it wrote is answered. */
  alongside?: (tx: Transaction, document: DocumentRow) => Promise<MessageRow[]>;
}

/** Written in the transaction that ends a document (given the row as it was): the owner's message, if any. */
export type AfterDocument = (tx: Transaction, before: DocumentRow) => Promise<MessageRow | undefined>;

export type CreateDocumentResult =
  | { kind: 'created'; document: DocumentRow; messages: MessageRow[] }
  | { kind: 'duplicate'; document: DocumentRow }
  | { kind: 'not-found' }
  | { kind: 'full'; limit: number };

/** What `reopenDuplicate` did; `retried` holds what to put back if the retry cannot be queued. */
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

/** An answer the owner wrote to a Spark's unanswered question, kept as knowledge of the Spark. */
export interface OwnerAnswer {
  sparkId: string;
  userId: string;
  question: string;
  answer: string;
  language: 'es' | 'en';
}

/** Files (not the owner's written answers, origin `owner`: they do not take a file's place) of a Spark. */
async function filesIn(db: Executor, sparkId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(documents)
    .where(and(eq(documents.sparkId, sparkId), eq(documents.origin, 'file')));
  return n;
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
  constructor(private readonly db: Database) {}

  /**
   * The writes other repositories make in documents inside their own transaction `tx`. Not the whole
   * repository, unlike `ConversationsRepository.withTx`: its transactions (and the chunk writer's, which
   * streams on a connection of its own) begin on the pool.
   */
  withTx(tx: Transaction): DocumentsInTransaction {
    return new DocumentsInTransaction(tx);
  }

  /**
   * Adds a document unless the Spark already holds `limit` files (a number, or read inside the transaction: the
   * caller's rule, e.g. the owner's plan), with what `hooks` write in the same transaction (not found when
   * `admit` says no). The Spark row is locked so that two concurrent uploads cannot both see room for one more;
   * the same file (same SHA-256) in the same Spark is answered with the document that already holds it (nothing
   * written: see `reopenDuplicate`).
   */
  async createWithinLimit(
    userId: string,
    sparkId: string,
    values: NewDocument,
    limit: number | ((tx: Transaction) => Promise<number>),
    hooks: DocumentTxHooks = {},
  ): Promise<CreateDocumentResult> {
    return this.db.transaction(async (tx) => {
      const [spark] = await tx
        .select({ id: sparks.id })
        .from(sparks)
        .where(and(eq(sparks.id, sparkId), eq(sparks.userId, userId)))
        .for('update');
      if (!spark) return { kind: 'not-found' };
      if (hooks.admit && !(await hooks.admit(tx, sparkId))) return { kind: 'not-found' };
      const [existing] = await tx
        .select()
        .from(documents)
        .where(and(eq(documents.sparkId, sparkId), eq(documents.sha256, values.sha256)));
      if (existing) return { kind: 'duplicate', document: existing };
      const max = typeof limit === 'number' ? limit : await limit(tx);
      const n = await filesIn(tx, sparkId);
      if (n >= max) return { kind: 'full', limit: max };
      const [document] = await tx
        .insert(documents)
        .values({ sparkId, userId, ...values, status: 'pending' })
        .returning();
      const posted = hooks.alongside ? await hooks.alongside(tx, document) : [];
      return { kind: 'created', document, messages: posted };
    });
  }

  /**
   * The same file uploaded again, in one transaction: a document that failed (`retry`) goes back to
   * `pending`; one still waiting or being read reports to `conversationId`; `hooks` write with it. Not found
   * when the document is gone or `admit` says no.
   */
  async reopenDuplicate(
    userId: string,
    documentId: string,
    options: { retry: boolean; conversationId?: string },
    hooks: DocumentTxHooks = {},
  ): Promise<DuplicateResult> {
    return this.db.transaction(async (tx) => {
      const [doc] = await tx
        .select()
        .from(documents)
        .where(and(eq(documents.id, documentId), eq(documents.userId, userId)))
        .for('update');
      if (!doc) return { kind: 'not-found' };
      if (hooks.admit && !(await hooks.admit(tx, doc.sparkId))) return { kind: 'not-found' };
      const { conversationId } = options;
      let document = doc;
      let retried: { error: string | null; conversationId: string | null } | undefined;
      if (doc.status === 'error' && options.retry) {
        retried = { error: doc.error, conversationId: doc.conversationId };
        [document] = await tx
          .update(documents)
          .set({
            status: 'pending',
            error: null,
            conversationId: conversationId ?? doc.conversationId,
            updatedAt: new Date(),
          })
          .where(eq(documents.id, doc.id))
          .returning();
      } else if (conversationId && (doc.status === 'pending' || doc.status === 'inProgress')) {
        // Where the "read" message goes.
        [document] = await tx
          .update(documents)
          .set({ conversationId, updatedAt: new Date() })
          .where(eq(documents.id, doc.id))
          .returning();
      }
      const posted = hooks.alongside ? await hooks.alongside(tx, document) : [];
      return { kind: 'announced', document, messages: posted, retried };
    });
  }

  /**
   * Undoes a new upload that could not be finished (its file not stored or its job not queued): the document
   * goes, with what `alongside` takes back (the messages it posted), in one transaction.
   */
  async discardUpload(documentId: string, alongside?: (tx: Transaction) => Promise<void>): Promise<void> {
    await this.db.transaction(async (tx) => {
      await alongside?.(tx);
      await tx.delete(documents).where(eq(documents.id, documentId));
    });
  }

  /**
   * Undoes the retry of `reopenDuplicate` whose job could not be queued: the document is put back as it was
   * (unless a worker took it meanwhile), with what `alongside` takes back, in one transaction.
   */
  async undoRetry(
    documentId: string,
    previous: { error: string | null; conversationId: string | null },
    alongside?: (tx: Transaction) => Promise<void>,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await alongside?.(tx);
      await tx
        .update(documents)
        .set({ status: 'error', error: previous.error, conversationId: previous.conversationId, updatedAt: new Date() })
        .where(and(eq(documents.id, documentId), eq(documents.status, 'pending')));
    });
  }

  /** How many files (not the owner's written answers) a Spark holds. */
  countFiles(sparkId: string): Promise<number> {
    return filesIn(this.db, sparkId);
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

  /**
   * The title customers read as its source (null: the file name). The new `updatedAt` changes the Spark's chunk
   * signature, so that an answer engine holding the old names reads them again.
   */
  async setTitle(userId: string, sparkId: string, documentId: string, title: string | null) {
    const [row] = await this.db
      .update(documents)
      .set({ title, updatedAt: new Date() })
      .where(
        and(
          eq(documents.id, documentId),
          eq(documents.sparkId, sparkId),
          eq(documents.userId, userId),
          // An owner's written answer is not a file: its "name" is the question it answers.
          eq(documents.origin, 'file'),
        ),
      )
      .returning();
    return row as DocumentRow | undefined;
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
   * Writes the chunks and the document's figures, with what `after` writes (the owner's message), in one
   * transaction: the old chunks of the document (from an interrupted or repeated run) are replaced, never added
   * to. Answers undefined when the document was deleted meanwhile (then nothing is written).
   */
  complete(
    documentId: string,
    result: DocumentFigures & { chunks: NewChunk[] },
    after?: AfterDocument,
  ): Promise<CompletedDocument | undefined> {
    return this.openChunkWriter(documentId, after).complete(result, result.chunks);
  }

  /**
   * `complete`, with the chunks written while the document is still being read: one transaction,
   * begun with the first chunks (or at `complete`), that removes the document's old chunks, writes
   * each batch as it is handed over (one statement at a time, batches handed over meanwhile going
   * together), and finally completes the document (and runs `after`) — or, aborted, writes nothing. The
   * chunks are seen by no one before the end, so an interrupted run leaves nothing behind. It holds the
   * document row from its start (locked before its chunks, as a deletion takes them), so deleting the
   * document waits for it. Every writer must end with `complete` or `abort`.
   */
  openChunkWriter(documentId: string, after?: AfterDocument): ChunkWriter {
    return openChunkWriter(this.db, documentId, async (tx, doc, figures) => {
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
      const posted = after ? await after(tx, doc) : undefined;
      return { document, message: posted };
    });
  }

  /**
   * Marks the document `error` with a reason code (unless it was completed meanwhile), with what `after`
   * writes (the owner's message). Answers undefined when there was nothing to mark.
   */
  async fail(
    documentId: string,
    error: string,
    figures: { pages?: number | null },
    after?: AfterDocument,
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
      const posted = after ? await after(tx, doc) : undefined;
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
}
