/**
 * What the knowledge tests (test/integration/knowledge-*.it.ts) share: an api with the suite's worker, the
 * repositories they look through, and helpers to upload, wait for a document, ask a test of the Spark and look at the
 * stored files.
 */
import {
  AccountsRepository,
  ConversationsRepository,
  createDb,
  DocumentsRepository,
  SparksRepository,
  type DbHandle,
} from '@sparks/db';
import fs from 'node:fs';
import path from 'node:path';
import { GUIA_PAGES, longPages, makePdf } from '../fixtures/pdfs';
import { createUser, eventually, startApp, type SignedUser, type TestApp } from '../harness';

export const STORAGE_DIR = process.env.STORAGE_DIR!;

let long: Promise<Buffer> | undefined;
/** 600 pages of Spanish prose: a few seconds of reading. */
export const longPdf = () => (long ??= makePdf(longPages(600)));

/** A signed-in user with the id of their row. */
export interface Owner extends SignedUser {
  id: string;
}

/** The api and the repositories of one test file, set in its `beforeAll`. */
export interface KnowledgeApp {
  t: TestApp;
  handle: DbHandle;
  sparks: SparksRepository;
  conversations: ConversationsRepository;
  documents: DocumentsRepository;
  /** The four-page Spanish guide (GUIA_PAGES) as a PDF. */
  guia: Buffer;
  /** A new user (Spanish-speaking unless told) with their id. */
  owner(language?: 'es' | 'en', app?: TestApp): Promise<Owner>;
  /** A Spark of `user`, written straight to the database. */
  spark(user: Owner, language?: 'es' | 'en'): ReturnType<SparksRepository['create']>;
  /** `POST /api/v1/bucket` with the fields and the file given. */
  upload(
    user: SignedUser,
    fields: Record<string, string>,
    file: Buffer,
    filename?: string,
    contentType?: string,
  ): ReturnType<ReturnType<TestApp['http']>['post']>;
  /** The document once the api shows it with `status`. */
  waitForStatus(
    user: SignedUser,
    sparkId: string,
    id: string,
    status: string,
    timeoutMs?: number,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the api's JSON
  ): Promise<any>;
  /** The pages of the Spark's chunks that full-text search finds for `query`. */
  ftsPages(sparkId: string, config: 'spanish' | 'english', query: string): Promise<number[]>;
  /**
   * A new test of the Spark (`POST /sparks/{id}/tests`) and a way to ask in it: the answer's `data` (`ai`,
   * `conversationId`…), the question going to `conversationId` when one is given.
   */
  testChat(
    user: SignedUser,
    sparkId: string,
    name?: string,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the api's JSON
  ): Promise<(text: string, conversationId?: string) => Promise<any>>;
}

/**
 * Starts an api (and a database handle) for the enclosing `describe` and closes them after it. The object
 * answered is filled in by `beforeAll`: read its fields inside tests and hooks only.
 */
export function useKnowledgeApp(): KnowledgeApp {
  const k = {
    async owner(language: 'es' | 'en' = 'es', app: TestApp = k.t) {
      const user = await createUser(app, { language, tag: 'docs' });
      const row = await new AccountsRepository(k.handle.db).findUserByUsername(user.username);
      return { ...user, id: row!.id };
    },
    spark(user: Owner, language: 'es' | 'en' = 'es') {
      return k.sparks.create(user.id, {
        name: 'Panadería',
        options: {
          isTest: false,
          initialMessage: 'Hola',
          level: 'PUBLIC',
          sysPrompt: 'Eres el asistente de la panadería.',
          language,
        },
      });
    },
    upload(user, fields, file, filename = 'guia.pdf', contentType = 'application/pdf') {
      const req = k.t
        .http()
        .post('/api/v1/bucket')
        .set(...user.auth());
      for (const [key, value] of Object.entries(fields)) void req.field(key, value);
      return req.attach('file', file, { filename, contentType });
    },
    waitForStatus(user, sparkId, id, status, timeoutMs = 30_000) {
      return eventually(async () => {
        const res = await k.t
          .http()
          .get(`/api/v1/sparks/${sparkId}/documents/${id}`)
          .set(...user.auth());
        return res.body.data?.status === status ? res.body.data : undefined;
      }, timeoutMs);
    },
    async testChat(user, sparkId, name = 'Questions') {
      const test = await k.t
        .http()
        .post(`/api/v1/sparks/${sparkId}/tests`)
        .set(...user.auth())
        .send({ name })
        .expect(201);
      return async (text, conversationId) =>
        (
          await k.t
            .http()
            .post(`/api/v1/sparks/${sparkId}/chat/${test.body.data._id}`)
            .set(...user.auth())
            .send({ input: { text }, ...(conversationId ? { conversationId } : {}) })
            .expect(201)
        ).body.data;
    },
    async ftsPages(sparkId, config, query) {
      const res = await k.handle.pool.query<{ page: number }>(
        `SELECT DISTINCT page FROM document_chunks WHERE spark_id = $1 AND tsv @@ websearch_to_tsquery($2::regconfig, $3) ORDER BY page`,
        [sparkId, config, query],
      );
      return res.rows.map((r) => r.page);
    },
  } as KnowledgeApp;

  beforeAll(async () => {
    k.t = await startApp();
    k.handle = createDb(process.env.DATABASE_URL!, 4);
    k.sparks = new SparksRepository(k.handle.db);
    k.conversations = new ConversationsRepository(k.handle.db);
    k.documents = new DocumentsRepository(k.handle.db);
    k.guia = await makePdf(GUIA_PAGES);
  });
  afterAll(async () => {
    await k.t?.close();
    await k.handle?.close();
  });
  return k;
}

/** Files under the storage folder: stored documents and upload leftovers. */
export function storedFiles(): string[] {
  const walk = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
          const full = path.join(dir, e.name);
          return e.isDirectory() ? walk(full) : [path.relative(STORAGE_DIR, full)];
        })
      : [];
  return walk(STORAGE_DIR);
}

export const tmpLeftovers = () => storedFiles().filter((f) => f.startsWith('.tmp'));
/** Files that appeared since `before` (files of failed documents may still be going away meanwhile). */
export const newFiles = (before: string[]) => storedFiles().filter((f) => !before.includes(f));
