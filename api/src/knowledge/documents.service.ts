import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DocumentPage, DocumentPagesView, DocumentView } from '@sparks/contracts';
import { DomainError, type AppConfig, type Language } from '@sparks/core';
import {
  ConversationsRepository,
  DocumentsRepository,
  IntegrationsRepository,
  SparksRepository,
  type DocumentRow,
} from '@sparks/db';
import { countLetters, LITTLE_TEXT_LETTERS, type FileStorage } from '@sparks/knowledge';
import { JobProducer, jobIds } from '@sparks/queues';
import { CONFIG, STORAGE } from '@sparks/nest';
import { toDocumentView, type DocumentSource } from './documents.view';

export interface LoadDocMessageInput {
  message: { type: string; content: string; data?: Record<string, unknown> | null };
  sessionId?: string | null;
  sparkId?: string | null;
}

@Injectable()
export class DocumentsService {
  private readonly logger = new Logger(DocumentsService.name);

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly sparks: SparksRepository,
    private readonly conversations: ConversationsRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly producer: JobProducer,
    @Inject(STORAGE) private readonly storage: FileStorage,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  private async ownedSpark(userId: string, sparkId: string): Promise<void> {
    if (!(await this.sparks.findOwned(userId, sparkId))) throw DomainError.notFound();
  }

  private async ownedDocument(userId: string, sparkId: string, documentId: string): Promise<DocumentRow> {
    const doc = await this.documents.findOwned(userId, sparkId, documentId);
    if (!doc) throw DomainError.notFound();
    return doc;
  }

  private view(doc: DocumentRow, language: Language, from?: DocumentSource): DocumentView {
    return toDocumentView(doc, language, this.config, from);
  }

  /** The documents with where each imported one came from (SharePoint, OneDrive). */
  private async views(docs: DocumentRow[], language: Language): Promise<DocumentView[]> {
    const sources = await this.integrations.sourcesOf(docs.map((d) => d.id));
    return docs.map((d) => this.view(d, language, sources.get(d.id)));
  }

  async list(userId: string, sparkId: string, language: Language): Promise<DocumentView[]> {
    await this.ownedSpark(userId, sparkId);
    return this.views(await this.documents.listForSpark(userId, sparkId), language);
  }

  async get(userId: string, sparkId: string, documentId: string, language: Language): Promise<DocumentView> {
    const [view] = await this.views([await this.ownedDocument(userId, sparkId, documentId)], language);
    return view;
  }

  /** Gives the document the title customers read as its source in answers (null: back to the file name). */
  async setTitle(
    userId: string,
    sparkId: string,
    documentId: string,
    title: string | null,
    language: Language,
  ): Promise<DocumentView> {
    const doc = await this.documents.setTitle(userId, sparkId, documentId, title);
    if (!doc) throw DomainError.notFound();
    const [view] = await this.views([doc], language);
    return view;
  }

  /** Removes the document, its chunks (with it, in the database), its queued job and its file. */
  async remove(userId: string, sparkId: string, documentId: string): Promise<{ _id: string; deleted: true }> {
    const doc = await this.documents.deleteOwned(userId, sparkId, documentId);
    if (!doc) throw DomainError.notFound();
    // The Spark's knowledge changed: its answer checks run again (issue 35 item 3).
    await this.producer.requestChecks(sparkId);
    const job = await this.producer.queue('ingestion').getJob(jobIds['document.ingest']({ documentId }));
    // A job being worked on cannot be removed; it finds the document gone and stops by itself.
    await job?.remove().catch(() => undefined);
    await this.storage
      .delete(doc.storageKey)
      .catch((err: unknown) => this.logger.warn(`could not delete the file of document ${doc.id}: ${String(err)}`));
    return { _id: doc.id, deleted: true };
  }

  /**
   * Removes every document of a Spark with its chunks, queued jobs and stored files. For the Spark's
   * deletion: call it first, since the files cannot be found once the Spark's rows are gone.
   */
  async removeAllOfSpark(userId: string, sparkId: string): Promise<number> {
    const docs = await this.documents.listForSpark(userId, sparkId);
    for (const doc of docs) await this.remove(userId, sparkId, doc.id);
    return docs.length;
  }

  /** What the Spark read, page by page; pages without text are flagged (scans, images). */
  async pages(
    userId: string,
    sparkId: string,
    documentId: string,
    q: { offset: number; limit: number },
    language: Language,
  ): Promise<DocumentPagesView> {
    const doc = await this.ownedDocument(userId, sparkId, documentId);
    const total = doc.status === 'completed' ? (doc.pages ?? 0) : 0;
    const from = q.offset + 1;
    const to = Math.min(total, q.offset + q.limit);
    const byPage = new Map<number, string[]>();
    if (total > 0 && from <= to) {
      for (const chunk of await this.documents.chunksOf(doc.id, { from, to })) {
        const list = byPage.get(chunk.page) ?? [];
        list.push(chunk.content);
        byPage.set(chunk.page, list);
      }
    }
    const withText = new Set(total > 0 ? await this.documents.pagesWithText(doc.id) : []);
    const emptyPages: number[] = [];
    for (let p = 1; p <= total; p++) if (!withText.has(p)) emptyPages.push(p);
    const pages: DocumentPage[] = [];
    for (let p = from; p <= to; p++) {
      const text = (byPage.get(p) ?? []).join('\n');
      const letters = countLetters(text);
      pages.push({
        page: p,
        chars: text.length,
        text,
        noText: letters === 0,
        littleText: letters > 0 && letters < LITTLE_TEXT_LETTERS,
      });
    }
    const [document] = await this.views([doc], language);
    return { document, emptyPages, offset: q.offset, limit: q.limit, total, pages };
  }

  /**
   * POST /llm/load-doc-message: a document-upload message carries `data.type: 'document'` or a
   * document id; a bare text is one when the conversation holds a document message with that text.
   */
  async isDocumentLoadMessage(userId: string, input: LoadDocMessageInput): Promise<{ isDocumentLoadMessage: boolean }> {
    if (input.sparkId) await this.ownedSpark(userId, input.sparkId);
    const conversation = input.sessionId ? await this.conversations.findOwned(userId, input.sessionId) : undefined;
    if (input.sessionId && (!conversation || (input.sparkId && conversation.sparkId !== input.sparkId))) {
      throw DomainError.notFound();
    }
    const data = input.message.data ?? {};
    if (data.type === 'document' || (typeof data.documentId === 'string' && data.documentId !== '')) {
      return { isDocumentLoadMessage: true };
    }
    const content = input.message.content.trim();
    if (!conversation || content === '') return { isDocumentLoadMessage: false };
    return { isDocumentLoadMessage: await this.conversations.hasDocumentMessage(conversation.id, content) };
  }
}
