/** The streaming chunk writer of a document being read: see `openChunkWriter`. */

import { eq, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Database, Transaction } from './client';
import type {
  CompletedDocument,
  DocumentFigures,
  DocumentRow,
  NewChunk,
  TextSearchConfig,
} from './documents.repository';
import { documentChunks, documents } from './schema/index';

/** A document's chunks written as they are read, in one transaction: see `openChunkWriter`. */
export interface ChunkWriter {
  /** Hands over chunks to write, in reading order (written in the background). */
  write(chunks: NewChunk[], config: TextSearchConfig): void;
  /**
   * Writes what is left, completes the document (with what the writer's `after` writes) and commits;
   * undefined when it was deleted meanwhile. With `replaceWith`, the chunks written so far are dropped and
   * these written instead (a reading that had to start over).
   */
  complete(figures: DocumentFigures, replaceWith?: NewChunk[]): Promise<CompletedDocument | undefined>;
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
  | { kind: 'complete'; figures: DocumentFigures; replaceWith?: NewChunk[] }
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
    const rows = chunks.slice(start, start + INSERT_BATCH).map((c, i) => ({
      id: uuidv7(),
      ord: firstOrd + start + i,
      page: c.page,
      content: c.content,
      facts: c.facts?.length ? c.facts : null,
    }));
    await tx.execute(sql`
      INSERT INTO document_chunks (id, document_id, spark_id, ord, page, content, config, tsv, facts)
      SELECT c.id, d.id, d.spark_id, c.ord, c.page, c.content, ${config}, to_tsvector(${config}::regconfig, c.content), c.facts
        FROM documents d, jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
             AS c(id uuid, ord int, page int, content text, facts jsonb)
       WHERE d.id = ${documentId}::uuid`);
  }
}

/** Completes the document inside the writer's transaction (its figures, what goes with them). */
export type FinishDocument = (
  tx: Transaction,
  doc: DocumentRow,
  figures: DocumentFigures,
) => Promise<CompletedDocument>;

/**
 * Writes the chunks of a document while it is still being read: one transaction,
 * begun with the first chunks (or at `complete`), that removes the document's old chunks, writes
 * each batch as it is handed over (one statement at a time, batches handed over meanwhile going
 * together), and finally completes the document (`finish`) — or, aborted, writes nothing. The chunks are seen
 * by no one before the end, so an interrupted run leaves nothing behind. It holds the document
 * row from its start (locked before its chunks, as a deletion takes them), so deleting the
 * document waits for it. Every writer must end with `complete` or `abort`.
 */
export function openChunkWriter(db: Database, documentId: string, finish: FinishDocument): ChunkWriter {
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
    db
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
            return finish(tx, doc, command.figures);
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
    await db
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
    complete: (figures, replaceWith) => {
      end({ kind: 'complete', figures, replaceWith });
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
