import {
  NO_PLAN_LIMIT,
  planOfUser,
  type AfterDocument,
  type BillingRepository,
  type ChunkWriter,
  type CompletedDocument,
  type ConversationsRepository,
  type CreateDocumentResult,
  type DocumentFigures,
  type DocumentRow,
  type DocumentsRepository,
  type DocumentTxHooks,
  type DuplicateResult,
  type MessageRow,
  type NewChunk,
  type NewDocument,
  type Transaction,
  type schema,
} from '@sparks/db';

/** A chat message to write. */
export interface NewMessage {
  type: MessageRow['type'];
  data: schema.MessageData;
}

/**
 * The messages an upload posts in the conversation it came from, written in the same transaction as what the
 * upload changes (given the document as it is then), or not at all.
 */
export interface UploadAnnouncement {
  conversationId: string;
  messages: (document: DocumentRow) => NewMessage[];
}

/** A document's chunk writer whose `complete` posts the owner's message with the document's final state. */
export interface OutcomeChunkWriter extends Omit<ChunkWriter, 'complete'> {
  complete(
    figures: DocumentFigures,
    message?: NewMessage,
    replaceWith?: NewChunk[],
  ): Promise<CompletedDocument | undefined>;
}

/**
 * The rules of adding and ending a document (docs/product.md §4) over `DocumentsRepository`, which only writes
 * document rows: the plan's document limit (`limit_documents` of the owner's plan, read inside the transaction
 * that counts against it), and the chat messages an upload or an outcome posts, written in the document's
 * transaction (the owner's conversation held), so a redelivered job or a failed upload cannot leave one without
 * the other.
 */
export class DocumentIntake {
  constructor(
    private readonly documents: DocumentsRepository,
    private readonly conversations: ConversationsRepository,
    private readonly billing: BillingRepository,
  ) {}

  /**
   * Adds a document unless the Spark already holds `max` files (`'plan'`: the owner's plan), with the messages of
   * `announce` (not found when its conversation is not the owner's in this Spark). See
   * `DocumentsRepository.createWithinLimit`.
   */
  createWithinLimit(
    userId: string,
    sparkId: string,
    values: NewDocument,
    max: number | 'plan',
    announce?: UploadAnnouncement,
  ): Promise<CreateDocumentResult> {
    const limit =
      max === 'plan' ? async (tx: Transaction) => (await planOfUser(tx, userId))?.limitDocuments ?? NO_PLAN_LIMIT : max;
    return this.documents.createWithinLimit(userId, sparkId, values, limit, this.announcing(announce, userId));
  }

  /**
   * The same file uploaded again, in one transaction: a document that failed (`retry`) goes back to `pending`;
   * one still waiting or being read reports to the new conversation; the messages of `announce` are written. Not
   * found when the document or the conversation is gone.
   */
  announceDuplicate(
    userId: string,
    documentId: string,
    options: { retry: boolean; announce?: UploadAnnouncement },
  ): Promise<DuplicateResult> {
    const { announce } = options;
    return this.documents.reopenDuplicate(
      userId,
      documentId,
      { retry: options.retry, conversationId: announce?.conversationId },
      this.announcing(announce, userId),
    );
  }

  /** Undoes a new upload that could not be finished: the document and the messages it posted go, in one transaction. */
  discardUpload(documentId: string, messageIds: string[]): Promise<void> {
    return this.documents.discardUpload(documentId, (tx) => this.conversations.withTx(tx).deleteMessages(messageIds));
  }

  /** Undoes the retry of `announceDuplicate` whose job could not be queued, and the messages it posted. */
  undoRetry(
    documentId: string,
    previous: { error: string | null; conversationId: string | null },
    messageIds: string[],
  ): Promise<void> {
    return this.documents.undoRetry(documentId, previous, (tx) =>
      this.conversations.withTx(tx).deleteMessages(messageIds),
    );
  }

  /**
   * The plan's document count for a Spark and how many files it holds: for a check before work that would add
   * one (the document-sharing picker). `createWithinLimit` stays the rule.
   */
  async room(userId: string, sparkId: string): Promise<{ limit: number; used: number }> {
    const limit = (await this.billing.planOfUser(userId))?.limitDocuments ?? NO_PLAN_LIMIT;
    return { limit, used: await this.documents.countFiles(sparkId) };
  }

  /** `DocumentsRepository.complete`, with the owner's message in the same transaction. */
  complete(
    documentId: string,
    result: DocumentFigures & { chunks: NewChunk[] },
    message?: NewMessage,
  ): Promise<CompletedDocument | undefined> {
    return this.documents.complete(documentId, result, this.posting(message));
  }

  /** `DocumentsRepository.openChunkWriter`, whose `complete` posts the owner's message in the same transaction. */
  openChunkWriter(documentId: string): OutcomeChunkWriter {
    let message: NewMessage | undefined;
    const writer = this.documents.openChunkWriter(
      documentId,
      (tx, doc) => this.posting(message)?.(tx, doc) ?? Promise.resolve(undefined),
    );
    return {
      write: (chunks, config) => writer.write(chunks, config),
      abort: () => writer.abort(),
      cancel: (graceMs) => writer.cancel(graceMs),
      complete: (figures, outcome, replaceWith) => {
        message = outcome;
        return writer.complete(figures, replaceWith);
      },
    };
  }

  /** `DocumentsRepository.fail`, with the owner's message in the same transaction. */
  fail(
    documentId: string,
    error: string,
    figures: { pages?: number | null },
    message?: NewMessage,
  ): Promise<{ document: DocumentRow; message?: MessageRow } | undefined> {
    return this.documents.fail(documentId, error, figures, this.posting(message));
  }

  /**
   * Posts a message in a conversation unless it is gone (the worker's notices about a document, e.g. the sync of
   * a document-sharing connection); answers the message, or undefined.
   */
  async post(conversationId: string | null, message: NewMessage): Promise<MessageRow | undefined> {
    if (!conversationId) return undefined;
    return this.conversations.postIfPresent(conversationId, message.type, message.data);
  }

  /** The hooks that hold the upload's conversation (the owner's, in this Spark) and write its messages. */
  private announcing(announce: UploadAnnouncement | undefined, userId: string): DocumentTxHooks {
    if (!announce) return {};
    return {
      admit: (tx, sparkId) => this.conversations.withTx(tx).hold(announce.conversationId, { userId, sparkId }),
      alongside: async (tx, document) => {
        const conversations = this.conversations.withTx(tx);
        // In order: their ids and times follow it.
        const rows: MessageRow[] = [];
        for (const m of announce.messages(document)) {
          rows.push(await conversations.addMessage(announce.conversationId, m.type, m.data));
        }
        return rows;
      },
    };
  }

  /** Posts `message` in the document's conversation, inside the transaction that ends it (held until the end). */
  private posting(message: NewMessage | undefined): AfterDocument | undefined {
    if (!message) return undefined;
    return async (tx, doc) => {
      if (!doc.conversationId) return undefined;
      const conversations = this.conversations.withTx(tx);
      if (!(await conversations.hold(doc.conversationId))) return undefined;
      return conversations.addMessage(doc.conversationId, message.type, message.data);
    };
  }
}
