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

export type CreateDocumentResult =
  | { kind: 'created'; document: DocumentRow }
  | { kind: 'duplicate'; document: DocumentRow }
  | { kind: 'not-found' }
  | { kind: 'full' };

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
   * Adds a document unless the Spark already holds `max` of them. The Spark row is locked so that
   * two concurrent uploads cannot both see room for one more; the same file (same SHA-256) in the
   * same Spark is answered with the document that already holds it.
   */
  async createWithinLimit(
    userId: string,
    sparkId: string,
    values: NewDocument,
    max: number,
  ): Promise<CreateDocumentResult> {
    return this.db.transaction(async (tx) => {
      const [spark] = await tx
        .select({ id: sparks.id })
        .from(sparks)
        .where(and(eq(sparks.id, sparkId), eq(sparks.userId, userId)))
        .for('update');
      if (!spark) return { kind: 'not-found' };
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
      return { kind: 'created', document };
    });
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

  /** Removes a document the api created but could not finish storing or enqueueing. */
  async deleteById(documentId: string): Promise<void> {
    await this.db.delete(documents).where(eq(documents.id, documentId));
  }

  /** Sends a document back to the queue's start (a re-upload of a file that failed before). */
  async resetForRetry(documentId: string, conversationId: string | null): Promise<DocumentRow | undefined> {
    const [row] = await this.db
      .update(documents)
      .set({ status: 'pending', error: null, conversationId, updatedAt: new Date() })
      .where(and(eq(documents.id, documentId), eq(documents.status, 'error')))
      .returning();
    return row;
  }

  /** Where the "read" message goes when the document is still being read. */
  async setConversation(documentId: string, conversationId: string): Promise<void> {
    await this.db.update(documents).set({ conversationId, updatedAt: new Date() }).where(eq(documents.id, documentId));
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
    const transaction = () =>
      this.db
        .transaction(async (tx) => {
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
    const [conversation] = await tx
      .select({ id: conversations.id })
      .from(conversations)
      .where(eq(conversations.id, conversationId));
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
