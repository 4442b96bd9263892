import { and, asc, count, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Database } from './client';
import type { MessageRow } from './conversations.repository';
import { conversations, documentChunks, documents, messages, sparks, type MessageData } from './schema/index';

export type DocumentRow = typeof documents.$inferSelect;
export type DocumentStatus = DocumentRow['status'];
export type TextSearchConfig = 'spanish' | 'english';

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
  | { kind: 'full' };

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
}

/** A chat message written together with the document's final state, so a redelivered job cannot post twice. */
export interface OutcomeMessage {
  conversationId: string;
  type: MessageRow['type'];
  data: MessageData;
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

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

/** See `DocumentsRepository.openChunkWriter`. */
export interface ChunkWriter {
  /** Hands over chunks to write, in reading order (written in the background). */
  write(chunks: NewChunk[], config: TextSearchConfig): void;
  /**
   * Writes what is left, completes the document and commits; undefined when it was deleted
   * meanwhile. With `replaceWith`, the chunks written so far are dropped and these written instead
   * (a reading that had to start over).
   */
  complete(
    figures: DocumentFigures,
    message?: Omit<OutcomeMessage, 'conversationId'>,
    replaceWith?: NewChunk[],
  ): Promise<CompletedDocument | undefined>;
  /** Writes nothing (rolls back); safe to call after `complete` or twice. */
  abort(): Promise<void>;
  /**
   * `abort`, for a writer that may be stuck in the middle of a statement (a lock it waits for, a
   * server that stopped answering): the statement is cancelled on the server, then its backend
   * ended if that is not enough. Waits `graceMs` at most for each step; answers whether the
   * transaction is over (if not, its connection is abandoned to whatever holds it).
   */
  cancel(graceMs: number): Promise<boolean>;
}

type WriterCommand =
  | { kind: 'chunks'; chunks: NewChunk[]; config: TextSearchConfig }
  | {
      kind: 'complete';
      figures: DocumentFigures;
      message?: Omit<OutcomeMessage, 'conversationId'>;
      replaceWith?: NewChunk[];
    }
  | { kind: 'abort' };

class WriterAborted extends Error {}

/** Whether `promise` settles within `ms`. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

/**
 * Locks the conversation an upload posts to (it must be the owner's and the Spark's), so that it
 * cannot be deleted before the messages are written; answers whether it is there.
 */
async function holdConversation(tx: Transaction, userId: string, sparkId: string, conversationId: string) {
  const [row] = await tx
    .select({ id: conversations.id })
    .from(conversations)
    .where(
      and(eq(conversations.id, conversationId), eq(conversations.userId, userId), eq(conversations.sparkId, sparkId)),
    )
    .for('key share');
  return !!row;
}

/** Writes messages in a conversation already held (see `holdConversation`) and marks it as updated. */
async function insertMessages(tx: Transaction, conversationId: string, list: NewMessage[]): Promise<MessageRow[]> {
  if (list.length === 0) return [];
  const rows: MessageRow[] = [];
  // One by one: their order in the conversation is the order of their ids and creation times.
  for (const m of list) {
    const [row] = await tx.insert(messages).values({ conversationId, type: m.type, data: m.data }).returning();
    rows.push(row);
  }
  await tx
    .update(conversations)
    .set({ updatedAt: sql`now()` })
    .where(eq(conversations.id, conversationId));
  return rows;
}

const INSERT_BATCH = 1000;

/**
 * Inserts chunks numbered from `firstOrd`, one statement per 1,000: the rows travel as one JSON
 * parameter and PostgreSQL computes each chunk's tsvector in the document's text-search
 * configuration. The Spark is taken from the document row: a document deleted meanwhile gets none.
 */
async function insertChunks(
  tx: Transaction,
  documentId: string,
  firstOrd: number,
  chunks: NewChunk[],
  config: TextSearchConfig,
): Promise<void> {
  for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
    const rows = chunks
      .slice(start, start + INSERT_BATCH)
      .map((c, i) => ({ id: uuidv7(), ord: firstOrd + start + i, page: c.page, content: c.content }));
    await tx.execute(sql`
      INSERT INTO document_chunks (id, document_id, spark_id, ord, page, content, config, tsv)
      SELECT c.id, d.id, d.spark_id, c.ord, c.page, c.content, ${config}, to_tsvector(${config}::regconfig, c.content)
        FROM documents d, jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS c(id uuid, ord int, page int, content text)
       WHERE d.id = ${documentId}::uuid`);
  }
}

/** Documents of a Spark and their indexed chunks. Reads for users name the owner; the worker acts by id. */
export class DocumentsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Adds a document unless the Spark already holds `max` of them, with the messages of `announce`
   * in the same transaction (not found when its conversation is not the owner's in this Spark).
   * The Spark row is locked so that two concurrent uploads cannot both see room for one more; the
   * same file (same SHA-256) in the same Spark is answered with the document that already holds it
   * (nothing written: see `announceDuplicate`).
   */
  async createWithinLimit(
    userId: string,
    sparkId: string,
    values: NewDocument,
    max: number,
    announce?: UploadAnnouncement,
  ): Promise<CreateDocumentResult> {
    return this.db.transaction(async (tx) => {
      const [spark] = await tx
        .select({ id: sparks.id })
        .from(sparks)
        .where(and(eq(sparks.id, sparkId), eq(sparks.userId, userId)))
        .for('update');
      if (!spark) return { kind: 'not-found' };
      if (announce && !(await holdConversation(tx, userId, sparkId, announce.conversationId))) {
        return { kind: 'not-found' };
      }
      const [existing] = await tx
        .select()
        .from(documents)
        .where(and(eq(documents.sparkId, sparkId), eq(documents.sha256, values.sha256)));
      if (existing) return { kind: 'duplicate', document: existing };
      const [{ n }] = await tx.select({ n: count() }).from(documents).where(eq(documents.sparkId, sparkId));
      if (n >= max) return { kind: 'full' };
      const [document] = await tx
        .insert(documents)
        .values({ sparkId, userId, ...values, status: 'pending' })
        .returning();
      const posted = announce ? await insertMessages(tx, announce.conversationId, announce.messages(document)) : [];
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
      if (announce && !(await holdConversation(tx, userId, doc.sparkId, announce.conversationId))) {
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
      const posted = announce ? await insertMessages(tx, announce.conversationId, announce.messages(document)) : [];
      return { kind: 'announced', document, messages: posted, retried };
    });
  }

  /**
   * Undoes a new upload that could not be finished (its file not stored or its job not queued):
   * the document and the messages it posted go, in one transaction.
   */
  async discardUpload(documentId: string, messageIds: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (messageIds.length > 0) await tx.delete(messages).where(inArray(messages.id, messageIds));
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
      if (messageIds.length > 0) await tx.delete(messages).where(inArray(messages.id, messageIds));
      await tx
        .update(documents)
        .set({ status: 'error', error: previous.error, conversationId: previous.conversationId, updatedAt: new Date() })
        .where(and(eq(documents.id, documentId), eq(documents.status, 'pending')));
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
      .where(and(eq(documents.sparkId, sparkId), eq(documents.userId, userId)))
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
    const queue: WriterCommand[] = [];
    let wake: (() => void) | undefined;
    const push = (command: WriterCommand) => {
      queue.push(command);
      wake?.();
      wake = undefined;
    };
    const next = async (): Promise<WriterCommand> => {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return queue.shift()!;
    };
    /** The server process of the transaction and when the transaction began (see `cancel`). */
    let backend: { pid: number; began: string } | undefined;
    const transaction = () =>
      this.db
        .transaction(async (tx) => {
          const began = await tx.execute<{ pid: number; began: string }>(
            sql`SELECT pg_backend_pid() AS pid, now()::text AS began`,
          );
          backend = began.rows[0];
          const [held] = await tx
            .select({ id: documents.id })
            .from(documents)
            .where(eq(documents.id, documentId))
            .for('key share');
          if (held) await tx.delete(documentChunks).where(eq(documentChunks.documentId, documentId));
          let ord = 0;
          for (;;) {
            const command = await next();
            if (command.kind === 'abort') throw new WriterAborted();
            if (command.kind === 'complete') {
              if (!held) return undefined;
              if (command.replaceWith) {
                if (ord > 0) await tx.delete(documentChunks).where(eq(documentChunks.documentId, documentId));
                await insertChunks(tx, documentId, 0, command.replaceWith, command.figures.config);
              }
              // Held since the start: still there.
              const [doc] = await tx.select().from(documents).where(eq(documents.id, documentId)).for('update');
              return this.finishIn(tx, doc, command.figures, command.message);
            }
            const chunks = [...command.chunks];
            while (queue[0]?.kind === 'chunks' && queue[0].config === command.config) {
              chunks.push(...(queue.shift() as { chunks: NewChunk[] }).chunks);
            }
            if (held) await insertChunks(tx, documentId, ord, chunks, command.config);
            ord += chunks.length;
          }
        })
        .catch((err: unknown) => {
          if (err instanceof WriterAborted) return undefined;
          throw err;
        });
    /** The transaction, once begun; nothing is begun for a writer aborted before its first chunks. */
    let run: Promise<CompletedDocument | undefined> | undefined;
    const begin = () => {
      if (!run) {
        run = transaction();
        // Observed by `complete` (or swallowed by `abort`); never an unhandled rejection meanwhile.
        run.catch(() => undefined);
      }
      return run;
    };
    let ended = false;
    const end = (command: WriterCommand) => {
      if (ended) throw new Error('this chunk writer has already ended');
      ended = true;
      push(command);
    };
    /**
     * Signals the writer's backend, only while it is still in the transaction the writer began: its
     * connection goes back to the pool once the transaction ends, and must not be hit then.
     */
    const signal = async (fn: 'pg_cancel_backend' | 'pg_terminate_backend') => {
      if (!backend) return;
      await this.db
        .execute(
          sql`SELECT ${sql.raw(fn)}(pid) FROM pg_stat_activity
               WHERE pid = ${backend.pid} AND xact_start = ${backend.began}::timestamptz`,
        )
        .catch(() => undefined); // not allowed, or the server is away: the caller stops waiting anyway
    };
    return {
      write: (chunks, config) => {
        if (ended) throw new Error('this chunk writer has already ended');
        if (chunks.length === 0) return;
        push({ kind: 'chunks', chunks, config });
        void begin();
      },
      complete: (figures, message, replaceWith) => {
        end({ kind: 'complete', figures, message, replaceWith });
        return begin();
      },
      abort: async () => {
        if (!ended) end({ kind: 'abort' });
        await run?.catch(() => undefined);
      },
      cancel: async (graceMs) => {
        if (!ended) end({ kind: 'abort' });
        if (!run) return true;
        // A writer waiting for its next command rolls back at once; one inside a statement does not.
        if (await settlesWithin(run, graceMs)) return true;
        await signal('pg_cancel_backend');
        if (await settlesWithin(run, graceMs)) return true;
        await signal('pg_terminate_backend');
        return settlesWithin(run, graceMs);
      },
    };
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
      .where(and(eq(documents.sparkId, sparkId), eq(documents.status, 'completed')))
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

  private async postIn(
    tx: Transaction,
    conversationId: string | null,
    message: Omit<OutcomeMessage, 'conversationId'>,
  ): Promise<MessageRow | undefined> {
    if (!conversationId) return undefined;
    // Held until the end, so that a conversation deleted meanwhile cannot fail the insert.
    const [conversation] = await tx
      .select({ id: conversations.id })
      .from(conversations)
      .where(eq(conversations.id, conversationId))
      .for('key share');
    if (!conversation) return undefined;
    const [row] = await tx
      .insert(messages)
      .values({ conversationId, type: message.type, data: message.data })
      .returning();
    await tx
      .update(conversations)
      .set({ updatedAt: sql`now()` })
      .where(eq(conversations.id, conversationId));
    return row;
  }
}
