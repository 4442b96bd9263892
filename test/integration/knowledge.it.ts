import { MAX_UPLOAD_BYTES } from '@sparks/contracts';
import {
  AccountsRepository,
  ConversationsRepository,
  createDb,
  DocumentsRepository,
  SparksRepository,
  type DbHandle,
} from '@sparks/db';
import {
  ExtractionInterrupted,
  findPoppler,
  PdfExtractor,
  PdfTextReader,
  readDocument,
  readPdfDocument,
  S3Storage,
  StoredFileMissing,
  type PdfReaderName,
  type PdfTextReaderOptions,
  type ReadOutcome,
} from '@sparks/knowledge';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  bombPdf,
  brokenPageTreePdf,
  GUIA_PAGES,
  GUIDE_PAGES,
  heavyPagePdf,
  heavyPagesPdf,
  ligaturesPdf,
  longPages,
  makePdf,
  scanPng,
  sentencesOf,
  TWO_COLUMNS,
  twoColumnPdf,
  type PageSpec,
} from './fixtures/pdfs';
import { DocumentsService } from '../../api/src/knowledge/documents.service';
import { createUser, eventually, startApp, type SignedUser, type TestApp } from './harness';
import { ROOT } from './paths';

const STORAGE_DIR = process.env.STORAGE_DIR!;

let long: Promise<Buffer> | undefined;
/** 600 pages of Spanish prose: a few seconds of reading. */
const longPdf = () => (long ??= makePdf(longPages(600)));

interface Owner extends SignedUser {
  id: string;
}

describe('knowledge: PDF upload, storage, ingestion and what the Spark read', () => {
  let t: TestApp;
  let handle: DbHandle;
  let sparks: SparksRepository;
  let conversations: ConversationsRepository;
  let documents: DocumentsRepository;
  let guia: Buffer;

  beforeAll(async () => {
    t = await startApp();
    handle = createDb(process.env.DATABASE_URL!, 4);
    sparks = new SparksRepository(handle.db);
    conversations = new ConversationsRepository(handle.db);
    documents = new DocumentsRepository(handle.db);
    guia = await makePdf(GUIA_PAGES);
  });
  afterAll(async () => {
    await t.close();
    await handle.close();
  });

  async function owner(language: 'es' | 'en' = 'es'): Promise<Owner> {
    const user = await createUser(t, { language, tag: 'docs' });
    const row = await new AccountsRepository(handle.db).findUserByUsername(user.username);
    return { ...user, id: row!.id };
  }

  async function spark(user: Owner, language: 'es' | 'en' = 'es') {
    return sparks.create(user.id, {
      name: 'Panadería',
      options: {
        isTest: false,
        initialMessage: 'Hola',
        level: 'PUBLIC',
        sysPrompt: 'Eres el asistente de la panadería.',
        language,
      },
    });
  }

  function upload(
    user: SignedUser,
    fields: Record<string, string>,
    file: Buffer,
    filename = 'guia.pdf',
    contentType = 'application/pdf',
  ) {
    const req = t
      .http()
      .post('/api/v1/bucket')
      .set(...user.auth());
    for (const [k, v] of Object.entries(fields)) void req.field(k, v);
    return req.attach('file', file, { filename, contentType });
  }

  async function waitForStatus(user: SignedUser, sparkId: string, id: string, status: string, timeoutMs = 30_000) {
    return eventually(async () => {
      const res = await t
        .http()
        .get(`/api/v1/sparks/${sparkId}/documents/${id}`)
        .set(...user.auth());
      return res.body.data?.status === status ? res.body.data : undefined;
    }, timeoutMs);
  }

  /** Files under the storage folder: stored documents and upload leftovers. */
  function storedFiles(): string[] {
    const walk = (dir: string): string[] =>
      fs.existsSync(dir)
        ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
            const full = path.join(dir, e.name);
            return e.isDirectory() ? walk(full) : [path.relative(STORAGE_DIR, full)];
          })
        : [];
    return walk(STORAGE_DIR);
  }

  const tmpLeftovers = () => storedFiles().filter((f) => f.startsWith('.tmp'));
  /** Files that appeared since `before` (files of failed documents may still be going away meanwhile). */
  const newFiles = (before: string[]) => storedFiles().filter((f) => !before.includes(f));

  async function ftsPages(sparkId: string, config: 'spanish' | 'english', query: string): Promise<number[]> {
    const res = await handle.pool.query<{ page: number }>(
      `SELECT DISTINCT page FROM document_chunks WHERE spark_id = $1 AND tsv @@ websearch_to_tsquery($2::regconfig, $3) ORDER BY page`,
      [sparkId, config, query],
    );
    return res.rows.map((r) => r.page);
  }

  describe('a Spanish PDF, uploaded from the chat', () => {
    let user: Owner;
    let sparkId: string;
    let conversationId: string;
    let documentId: string;

    beforeAll(async () => {
      user = await owner('es');
      sparkId = (await spark(user)).id;
      conversationId = (await conversations.create(user.id, { kind: 'builder', sparkId })).id;
      const res = await upload(user, { sparkId, conversationId }, guia, 'Guía de la panadería.pdf').expect(201);
      documentId = res.body.data._id;
      expect(res.body.data).toMatchObject({ name: 'Guía de la panadería.pdf', status: 'pending', duplicate: false });
      expect(res.body.data.bucketFileId).toMatch(/^[0-9a-f-]{36}$/);
      await waitForStatus(user, sparkId, documentId, 'completed');
    });

    it('stores the file under a generated id, never under its name', async () => {
      const row = await documents.findById(documentId);
      expect(row!.storageKey).toMatch(/^documents\/[0-9a-f-]{36}\.pdf$/);
      expect(storedFiles()).toContain(row!.storageKey);
      expect(fs.readFileSync(path.join(STORAGE_DIR, row!.storageKey)).equals(guia)).toBe(true);
      expect(tmpLeftovers()).toEqual([]);
    });

    it('reads every page, in Spanish, with the page count and characters', async () => {
      const res = await t
        .http()
        .get(`/api/v1/sparks/${sparkId}/documents`)
        .set(...user.auth())
        .expect(200);
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0]).toMatchObject({
        _id: documentId,
        status: 'completed',
        pages: 4,
        language: 'es',
        error: null,
      });
      expect(res.body.data[0].chars).toBeGreaterThan(1000);
    });

    it('finds each fact on its own page with full-text search, accents included', async () => {
      expect(await ftsPages(sparkId, 'spanish', 'horario domingos festivos')).toEqual([1]);
      expect(await ftsPages(sparkId, 'spanish', 'menú del día café')).toEqual([2]);
      expect(await ftsPages(sparkId, 'spanish', 'envíos Canarias')).toEqual([3]);
      expect(await ftsPages(sparkId, 'spanish', 'alérgenos sésamo')).toEqual([4]);
      expect(await ftsPages(sparkId, 'spanish', 'tarta de Santiago')).toEqual([2]);
    });

    it('lets the Spark answer questions about it, citing the right page', async () => {
      const test = await t
        .http()
        .post(`/api/v1/sparks/${sparkId}/tests`)
        .set(...user.auth())
        .send({ name: 'Preguntas' })
        .expect(201);
      const ask = async (text: string) =>
        (
          await t
            .http()
            .post(`/api/v1/sparks/${sparkId}/chat/${test.body.data._id}`)
            .set(...user.auth())
            .send({ input: { text } })
            .expect(201)
        ).body.data.ai.data.content as string;
      const hours = await ask('¿Abrís los domingos?');
      expect(hours).toContain('Guía de la panadería.pdf, página 1');
      expect(hours).toContain('14:00');
      const islands = await ask('¿Cuánto tardan los envíos a Canarias?');
      expect(islands).toContain('Guía de la panadería.pdf, página 3');
      expect(islands).toContain('cinco días hábiles');
      const allergens = await ask('¿Tenéis pan sin gluten?');
      expect(allergens).toContain('página 4');
      expect(await ask('¿Hacéis pizzas a domicilio los lunes por la noche?')).toMatch(
        /^Lo siento, no encuentro información/,
      );
    });

    it('keeps every sentence whole, in exactly one chunk, on its page', async () => {
      const chunks = await documents.chunksOf(documentId);
      for (const { page, sentence } of sentencesOf(GUIA_PAGES)) {
        const holding = chunks.filter((c) => c.content.includes(sentence));
        expect({ sentence, pages: holding.map((c) => c.page) }).toEqual({ sentence, pages: [page] });
      }
      expect(chunks.map((c) => c.ord)).toEqual(chunks.map((_, i) => i));
    });

    it('tells the conversation: "you uploaded" first, then what it read, in the owner’s language', async () => {
      const history = await conversations.history(conversationId);
      expect(history).toHaveLength(2);
      expect(history[0]).toMatchObject({
        type: 'human',
        data: { content: '', type: 'document', documentId, name: 'Guía de la panadería.pdf' },
      });
      expect(history[1].type).toBe('ai');
      expect(history[1].data).toMatchObject({ type: 'document', documentId, status: 'completed', pages: 4 });
      expect(history[1].data.content).toMatch(
        // …and what it begins with (issue 18 item 3).
        /^He leído \*\*Guía de la panadería\.pdf\*\*: 4 páginas, [\d.]+ caracteres\. Empieza por: “[^”]+”(; “[^”]+”)*\.$/,
      );
    });

    it("completes the Spark builder's knowledge step", async () => {
      const res = await t
        .http()
        .get(`/api/v1/objectives/${sparkId}?lang=en`)
        .set(...user.auth())
        .expect(200);
      const knowledge = res.body.data.find((o: { _id: string }) => o._id === 'knowledge');
      expect(knowledge.status).toBe('completed');
      expect(knowledge.steps).toEqual([expect.objectContaining({ _id: 'knowledge.upload', status: 'completed' })]);
    });

    it('shows the owner what it read, page by page', async () => {
      const res = await t
        .http()
        .get(`/api/v1/sparks/${sparkId}/documents/${documentId}/pages`)
        .set(...user.auth())
        .expect(200);
      const view = res.body.data;
      expect(view).toMatchObject({ total: 4, emptyPages: [], offset: 0 });
      expect(view.pages.map((p: { page: number }) => p.page)).toEqual([1, 2, 3, 4]);
      expect(view.pages[2].text).toContain('Los envíos a las islas Canarias y Baleares tardan cinco días hábiles');
      expect(view.pages.every((p: { noText: boolean }) => !p.noText)).toBe(true);
      const second = await t
        .http()
        .get(`/api/v1/sparks/${sparkId}/documents/${documentId}/pages?offset=2&limit=1`)
        .set(...user.auth())
        .expect(200);
      expect(second.body.data.pages.map((p: { page: number }) => p.page)).toEqual([3]);
    });

    it('answers the same file again with the same document: no second file, no duplicate chunks', async () => {
      const before = await documents.countChunks(documentId);
      const filesBefore = storedFiles();
      const res = await upload(user, { sparkId, conversationId }, guia, 'copia.pdf').expect(201);
      expect(res.body.data).toMatchObject({ _id: documentId, status: 'completed', duplicate: true });
      expect(await documents.countChunks(documentId)).toBe(before);
      expect(newFiles(filesBefore)).toEqual([]);
      const history = await conversations.history(conversationId);
      expect(history.slice(-2).map((m) => [m.type, m.data.type, m.data.documentId])).toEqual([
        ['human', 'document', documentId],
        ['ai', 'document', documentId],
      ]);
    });

    it('says whether a chat message is a document upload (POST /llm/load-doc-message)', async () => {
      const ask = (body: object, who: SignedUser = user) =>
        t
          .http()
          .post('/api/v1/llm/load-doc-message')
          .set(...who.auth())
          .send(body);
      const message = (content: string, data?: object) => ({ type: 'human', content, ...(data ? { data } : {}) });
      let res = await ask({
        message: message('', { type: 'document', documentId }),
        sessionId: conversationId,
        sparkId,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ isDocumentLoadMessage: true });
      res = await ask({ message: message('Guía de la panadería.pdf'), sessionId: conversationId, sparkId }).expect(200);
      expect(res.body.data.isDocumentLoadMessage).toBe(true);
      res = await ask({ message: message('¿A qué hora abrís?'), sessionId: conversationId, sparkId }).expect(200);
      expect(res.body.data.isDocumentLoadMessage).toBe(false);
      const stranger = await owner('es');
      await ask({ message: message('Guía de la panadería.pdf'), sessionId: conversationId }, stranger).expect(404);
      await ask({ message: message('x'), sparkId }, stranger).expect(404);
    });

    it('deletes a document with its chunks and its file', async () => {
      const other = await upload(user, { sparkId }, await makePdf(GUIDE_PAGES), 'harbour.pdf').expect(201);
      const id = other.body.data._id;
      await waitForStatus(user, sparkId, id, 'completed');
      const key = (await documents.findById(id))!.storageKey;
      expect(await documents.countChunks(id)).toBeGreaterThan(0);

      const res = await t
        .http()
        .delete(`/api/v1/sparks/${sparkId}/documents/${id}`)
        .set(...user.auth())
        .expect(200);
      expect(res.body.data).toEqual({ _id: id, deleted: true });
      expect(await documents.countChunks(id)).toBe(0);
      expect(storedFiles()).not.toContain(key);
      await t
        .http()
        .get(`/api/v1/sparks/${sparkId}/documents/${id}`)
        .set(...user.auth())
        .expect(404);
      await t
        .http()
        .delete(`/api/v1/sparks/${sparkId}/documents/${id}`)
        .set(...user.auth())
        .expect(404);
      // The other document is untouched.
      expect(await documents.countChunks(documentId)).toBeGreaterThan(0);
    });
  });

  it('reads an English PDF in English, for an English-speaking owner', async () => {
    const user = await owner('en');
    const sparkId = (await spark(user, 'en')).id;
    const conversationId = (await conversations.create(user.id, { kind: 'builder', sparkId })).id;
    const res = await upload(user, { sparkId, conversationId }, await makePdf(GUIDE_PAGES), 'harbour.pdf').expect(201);
    const doc = await waitForStatus(user, sparkId, res.body.data._id, 'completed');
    expect(doc).toMatchObject({ pages: 3, language: 'en' });
    expect(await ftsPages(sparkId, 'english', 'electric bikes helmet')).toEqual([2]);
    expect(await ftsPages(sparkId, 'english', 'puncture lock')).toEqual([3]);
    const [, read] = await conversations.history(conversationId);
    expect(read.data.content).toMatch(
      /^I've read \*\*harbour\.pdf\*\*: 3 pages, [\d,]+ characters\. It begins with: “[^”]+”(; “[^”]+”)*\.$/,
    );
  });

  it('flags a page with no text (a scan inside a text PDF) but reads the rest', async () => {
    const user = await owner('en');
    const sparkId = (await spark(user, 'en')).id;
    const conversationId = (await conversations.create(user.id, { kind: 'builder', sparkId })).id;
    const pages: PageSpec[] = [GUIDE_PAGES[0], { image: true }, GUIDE_PAGES[1]];
    const res = await upload(user, { sparkId, conversationId }, await makePdf(pages), 'mixed.pdf').expect(201);
    const id = res.body.data._id;
    await waitForStatus(user, sparkId, id, 'completed');
    const view = (
      await t
        .http()
        .get(`/api/v1/sparks/${sparkId}/documents/${id}/pages`)
        .set(...user.auth())
        .expect(200)
    ).body.data;
    expect(view.emptyPages).toEqual([2]);
    expect(view.pages.map((p: { noText: boolean }) => p.noText)).toEqual([false, true, false]);
    const [, read] = await conversations.history(conversationId);
    expect(read.data.content).toContain('One page has no text I can read');
  });

  describe('files that cannot be read end as "error" with a reason, in the owner’s language', () => {
    const cases: Array<{ name: string; file: () => Promise<Buffer>; code: string; es: RegExp }> = [
      {
        name: 'a scanned document (images only)',
        file: () => makePdf([{ image: true }, { image: true }]),
        code: 'NO_TEXT',
        es: /parece un documento escaneado/,
      },
      {
        name: 'an encrypted PDF',
        file: () => makePdf(GUIA_PAGES, { userPassword: 'secreto' }),
        code: 'ENCRYPTED',
        es: /protegido con contraseña/,
      },
      {
        name: 'a truncated PDF',
        file: async () => (await makePdf(GUIA_PAGES)).subarray(0, 2500),
        code: 'TRUNCATED',
        es: /incompleto/,
      },
      {
        name: 'a malformed PDF',
        file: () => Promise.resolve(Buffer.from(`%PDF-1.7\n${'garbage '.repeat(500)}\n%%EOF\n`)),
        code: 'MALFORMED',
        es: /dañado o no es un PDF válido/,
      },
      {
        name: 'a decompression bomb (a 300 KB page that inflates to 200 MB)',
        file: () => Promise.resolve(bombPdf(200)),
        code: 'TOO_COMPLEX',
        es: /demasiado complejo/,
      },
    ];

    it.each(cases)('$name → $code', async ({ file, code, es }) => {
      const user = await owner('es');
      const sparkId = (await spark(user)).id;
      const conversationId = (await conversations.create(user.id, { kind: 'builder', sparkId })).id;
      const res = await upload(user, { sparkId, conversationId }, await file(), 'malo.pdf').expect(201);
      const id = res.body.data._id;
      const doc = await waitForStatus(user, sparkId, id, 'error');
      expect(doc.error).toBe(code);
      expect(doc.errorMessage).toMatch(es);
      expect(await documents.countChunks(id)).toBe(0);
      const key = (await documents.findById(id))!.storageKey;
      await eventually(() => Promise.resolve(!storedFiles().includes(key)));
      const [uploaded, failed] = await conversations.history(conversationId);
      expect(uploaded.data).toMatchObject({ type: 'document', documentId: id });
      expect(failed.data).toMatchObject({ type: 'document', documentId: id, status: 'error', error: code });
      expect(failed.data.content).toMatch(/^No he podido leer \*\*malo\.pdf\*\*\. /);
      expect(failed.data.content).toMatch(es);
      const objectives = await t
        .http()
        .get(`/api/v1/objectives/${sparkId}`)
        .set(...user.auth())
        .expect(200);
      expect(objectives.body.data.find((o: { _id: string }) => o._id === 'knowledge').status).toBe('pending');
    });
  });

  it('reads a failed file again when it is uploaded again', async () => {
    const user = await owner('en');
    const sparkId = (await spark(user, 'en')).id;
    const encrypted = await makePdf(GUIDE_PAGES, { userPassword: 'secret' });
    const first = await upload(user, { sparkId }, encrypted, 'locked.pdf').expect(201);
    const id = first.body.data._id;
    await waitForStatus(user, sparkId, id, 'error');
    const key = (await documents.findById(id))!.storageKey;
    await eventually(() => Promise.resolve(!storedFiles().includes(key)));

    const again = await upload(user, { sparkId }, encrypted, 'locked.pdf').expect(201);
    expect(again.body.data).toMatchObject({ _id: id, status: 'pending', duplicate: true });
    const doc = await waitForStatus(user, sparkId, id, 'error');
    expect(doc.error).toBe('ENCRYPTED');
    expect(await documents.listForSpark(user.id, sparkId)).toHaveLength(1);
  });

  it("removes every document of a Spark, with their files, before the Spark's deletion", async () => {
    const user = await owner('en');
    const sparkId = (await spark(user, 'en')).id;
    const ids: string[] = [];
    for (const page of GUIDE_PAGES) ids.push((await upload(user, { sparkId }, await makePdf([page]))).body.data._id);
    for (const id of ids) await waitForStatus(user, sparkId, id, 'completed');
    const keys = await Promise.all(ids.map(async (id) => (await documents.findById(id))!.storageKey));
    expect(await t.app.get(DocumentsService).removeAllOfSpark(user.id, sparkId)).toBe(3);
    expect(await documents.listForSpark(user.id, sparkId)).toEqual([]);
    for (const key of keys) expect(storedFiles()).not.toContain(key);
    expect(await ftsPages(sparkId, 'english', 'bikes')).toEqual([]);
  });

  describe('uploads refused at the door leave nothing behind', () => {
    let user: Owner;
    let sparkId: string;
    const nothingLeft = async (id: string) => {
      expect(await documents.listForSpark(user.id, id)).toEqual([]);
      expect(tmpLeftovers()).toEqual([]);
    };

    beforeAll(async () => {
      user = await owner('en');
      sparkId = (await spark(user, 'en')).id;
    });

    it('a PNG renamed .pdf, sent as application/pdf → 415 Incorrect format', async () => {
      const before = storedFiles();
      const res = await upload(user, { sparkId }, scanPng(), 'scan.pdf').expect(415);
      expect(res.body.errors).toEqual([
        { code: 'INCORRECT_FORMAT', message: 'Incorrect format', field: 'file' },
        { code: 'INCORRECT_FORMAT_DETAIL', message: 'Please upload a file in PDF format.', field: 'file' },
      ]);
      await nothingLeft(sparkId);
      expect(newFiles(before)).toEqual([]);
    });

    it('says it in Spanish to a Spanish-speaking owner', async () => {
      const es = await owner('es');
      const id = (await spark(es)).id;
      const res = await upload(es, { sparkId: id }, scanPng(), 'foto.pdf').expect(415);
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([
        'Formato incorrecto',
        'Por favor, sube un archivo en formato PDF.',
      ]);
    });

    it('10 MB + 1 byte → 413 while streaming; nothing stored', async () => {
      const before = storedFiles();
      const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0x20);
      big.write('%PDF-1.7\n', 'latin1');
      const res = await upload(user, { sparkId }, big, 'big.pdf').expect(413);
      expect(res.body.errors[0]).toMatchObject({ code: 'FILE_TOO_LARGE', message: 'The file is too large!' });
      expect(res.body.errors[1].message).toBe('The file must be smaller than 10MB.');
      await nothingLeft(sparkId);
      expect(newFiles(before)).toEqual([]);
    });

    it('a declared body far over the limit → 413 before a byte of it is read', async () => {
      const server = t.app.getHttpServer() as http.Server;
      if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/v1/bucket',
            headers: {
              Authorization: `Bearer ${user.access}`,
              'Content-Type': 'multipart/form-data; boundary=xyz',
              'Content-Length': String(500 * 1024 * 1024),
            },
          },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => {
              req.destroy();
              resolve({ status: res.statusCode ?? 0, body });
            });
          },
        );
        req.on('error', reject);
        req.write('--xyz\r\n'); // and never the 500 MB announced
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).errors[0].code).toBe('FILE_TOO_LARGE');
      await nothingLeft(sparkId);
    });

    it('exactly 10 MB is accepted and read', async () => {
      const exact = await makePdf(GUIDE_PAGES, { exactBytes: MAX_UPLOAD_BYTES });
      expect(exact.length).toBe(10 * 1024 * 1024);
      const res = await upload(user, { sparkId }, exact, 'exact.pdf').expect(201);
      const doc = await waitForStatus(user, sparkId, res.body.data._id, 'completed');
      expect(doc).toMatchObject({ size: MAX_UPLOAD_BYTES, pages: 3 });
      await t
        .http()
        .delete(`/api/v1/sparks/${sparkId}/documents/${doc._id}`)
        .set(...user.auth())
        .expect(200);
    });

    it('a path-traversal file name is only display text; the file lands under a generated id', async () => {
      const pdf = await makePdf([GUIDE_PAGES[2]]);
      const res = await upload(user, { sparkId }, pdf, '../../../../tmp/evil.pdf').expect(201);
      expect(res.body.data.name).toBe('evil.pdf');
      const row = await documents.findById(res.body.data._id);
      expect(row!.storageKey).toBe(`documents/${res.body.data.bucketFileId}.pdf`);
      expect(fs.existsSync(path.join(STORAGE_DIR, row!.storageKey))).toBe(true);
      const named = await upload(
        user,
        { sparkId, name: '..\\..\\win.ini\\notes.pdf' },
        await makePdf([GUIDE_PAGES[1]]),
      ).expect(201);
      expect(named.body.data.name).toBe('notes.pdf');
      for (const f of storedFiles()) expect(f).toMatch(/^documents\/[0-9a-f-]{36}\.pdf$/);
      for (const id of [res.body.data._id, named.body.data._id]) {
        await waitForStatus(user, sparkId, id, 'completed');
        await t
          .http()
          .delete(`/api/v1/sparks/${sparkId}/documents/${id}`)
          .set(...user.auth())
          .expect(200);
      }
    });

    it('another user’s Spark or conversation → 404, and its documents cannot be listed, read or deleted', async () => {
      const stranger = await owner('en');
      const before = storedFiles();
      await upload(stranger, { sparkId }, guia).expect(404);
      const theirs = (await spark(stranger, 'en')).id;
      const myConversation = (await conversations.create(user.id, { kind: 'builder', sparkId })).id;
      await upload(stranger, { sparkId: theirs, conversationId: myConversation }, guia).expect(404);
      // A conversation of the same owner but of another Spark is not a place for this upload either.
      const otherSpark = (await spark(user, 'en')).id;
      await upload(user, { sparkId: otherSpark, conversationId: myConversation }, guia).expect(404);
      expect(newFiles(before)).toEqual([]);
      expect(tmpLeftovers()).toEqual([]);

      const mine = await upload(user, { sparkId }, await makePdf([GUIDE_PAGES[0]])).expect(201);
      const id = mine.body.data._id;
      const base = `/api/v1/sparks/${sparkId}/documents`;
      await t
        .http()
        .get(base)
        .set(...stranger.auth())
        .expect(404);
      await t
        .http()
        .get(`${base}/${id}`)
        .set(...stranger.auth())
        .expect(404);
      await t
        .http()
        .get(`${base}/${id}/pages`)
        .set(...stranger.auth())
        .expect(404);
      await t
        .http()
        .delete(`${base}/${id}`)
        .set(...stranger.auth())
        .expect(404);
      await t
        .http()
        .get(`/api/v1/sparks/${theirs}/documents/${id}`)
        .set(...stranger.auth())
        .expect(404);
      expect(await documents.findById(id)).toBeDefined();
      await t.http().get(base).expect(401);
      await t.http().post('/api/v1/bucket').field('sparkId', sparkId).attach('file', guia, 'guia.pdf').expect(401);
      await waitForStatus(user, sparkId, id, 'completed');
      await t
        .http()
        .delete(`${base}/${id}`)
        .set(...user.auth())
        .expect(200);
    });

    it('answers a missing file, a missing Spark and a non-multipart body with 400', async () => {
      await t
        .http()
        .post('/api/v1/bucket')
        .set(...user.auth())
        .field('sparkId', sparkId)
        .expect(400);
      const noSpark = await t
        .http()
        .post('/api/v1/bucket')
        .set(...user.auth())
        .attach('file', guia, 'guia.pdf')
        .expect(400);
      expect(noSpark.body.errors[0]).toMatchObject({ code: 'REQUIRED', field: 'sparkId' });
      await t
        .http()
        .post('/api/v1/bucket')
        .set(...user.auth())
        .send({ sparkId })
        .expect(400);
      const empty = await upload(user, { sparkId }, Buffer.alloc(0), 'empty.pdf').expect(400);
      expect(empty.body.errors[0].code).toBe('EMPTY_FILE');
      await nothingLeft(sparkId);
    });
  });

  describe('the plan’s document limit', () => {
    const fill = async (user: Owner, sparkId: string, n: number) => {
      for (let i = 0; i < n; i++) {
        await documents.createWithinLimit(
          user.id,
          sparkId,
          {
            name: `d${i}.pdf`,
            storageKey: `documents/${randomUUID()}.pdf`,
            size: 1,
            sha256: randomUUID(),
            conversationId: null,
          },
          100,
        );
      }
    };

    it('refuses the 11th document with 402 Document limit reached!, storing nothing', async () => {
      const user = await owner('en');
      const sparkId = (await spark(user, 'en')).id;
      await fill(user, sparkId, 10);
      const before = storedFiles();
      const res = await upload(user, { sparkId }, guia).expect(402);
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([
        'Document limit reached!',
        'For the moment, you cannot upload more documents. Would you like to upgrade your plan?',
      ]);
      expect(await documents.listForSpark(user.id, sparkId)).toHaveLength(10);
      expect(newFiles(before)).toEqual([]);
      expect(tmpLeftovers()).toEqual([]);
    });

    it('lets exactly one of two simultaneous uploads take the last place', async () => {
      const user = await owner('en');
      const sparkId = (await spark(user, 'en')).id;
      await fill(user, sparkId, 9);
      const [a, b] = await Promise.all([
        upload(user, { sparkId }, await makePdf([GUIDE_PAGES[0]]), 'a.pdf'),
        upload(user, { sparkId }, await makePdf([GUIDE_PAGES[1]]), 'b.pdf'),
      ]);
      expect([a.status, b.status].sort()).toEqual([201, 402]);
      expect(await documents.listForSpark(user.id, sparkId)).toHaveLength(10);
    });
  });

  it('replaces, never adds to, the chunks of a document indexed twice', async () => {
    const user = await owner('es');
    const sparkId = (await spark(user)).id;
    const created = await documents.createWithinLimit(
      user.id,
      sparkId,
      {
        name: 'x.pdf',
        storageKey: `documents/${randomUUID()}.pdf`,
        size: 1,
        sha256: randomUUID(),
        conversationId: null,
      },
      10,
    );
    if (created.kind !== 'created') throw new Error(created.kind);
    const result = {
      pages: 2,
      chars: 40,
      language: 'es' as const,
      config: 'spanish' as const,
      chunks: [
        { page: 1, content: 'La panadería abre a las ocho.' },
        { page: 2, content: 'El pan sin gluten se hace aparte.' },
      ],
    };
    await documents.complete(created.document.id, result);
    await documents.complete(created.document.id, result);
    expect(await documents.countChunks(created.document.id)).toBe(2);
    expect(await ftsPages(sparkId, 'spanish', 'gluten')).toEqual([2]);
  });

  describe('chunks written while the document is still being read (the chunk writer)', () => {
    const chunk = (page: number, word: string) => ({ page, content: `En la página ${page} se habla de ${word}.` });
    const figures = { pages: 3, chars: 120, language: 'es' as const, config: 'spanish' as const };

    async function newDocument(user: Owner, sparkId: string, conversationId: string | null = null) {
      const created = await documents.createWithinLimit(
        user.id,
        sparkId,
        { name: 'x.pdf', storageKey: `documents/${randomUUID()}.pdf`, size: 1, sha256: randomUUID(), conversationId },
        10,
      );
      if (created.kind !== 'created') throw new Error(created.kind);
      return created.document;
    }

    it('writes the batches in order, shows nothing before the end, then completes the document in one go', async () => {
      const user = await owner('es');
      const sparkId = (await spark(user)).id;
      const conversationId = (await conversations.create(user.id, { kind: 'builder', sparkId })).id;
      const doc = await newDocument(user, sparkId, conversationId);
      await documents.complete(doc.id, { ...figures, chunks: [chunk(1, 'antiguo')] }); // a previous run

      const writer = documents.openChunkWriter(doc.id);
      writer.write([chunk(1, 'harina'), chunk(1, 'levadura')], 'spanish');
      writer.write([chunk(2, 'ensaimadas')], 'spanish');
      await new Promise((r) => setTimeout(r, 200));
      // Still the previous run's chunk for everyone else.
      expect(await ftsPages(sparkId, 'spanish', 'antiguo')).toEqual([1]);
      expect(await ftsPages(sparkId, 'spanish', 'harina')).toEqual([]);
      writer.write([chunk(3, 'gluten')], 'spanish');
      const done = await writer.complete(figures, {
        type: 'ai',
        data: { content: 'leído', type: 'document', documentId: doc.id },
      });

      expect(done!.document).toMatchObject({ status: 'completed', pages: 3, chars: 120, language: 'es' });
      expect(done!.message).toMatchObject({ conversationId, type: 'ai' });
      const rows = await handle.pool.query<{ ord: number; page: number; content: string }>(
        'SELECT ord, page, content FROM document_chunks WHERE document_id = $1 ORDER BY ord',
        [doc.id],
      );
      expect(rows.rows.map((r) => [r.ord, r.page])).toEqual([
        [0, 1],
        [1, 1],
        [2, 2],
        [3, 3],
      ]);
      expect(await ftsPages(sparkId, 'spanish', 'antiguo')).toEqual([]);
      expect(await ftsPages(sparkId, 'spanish', 'gluten')).toEqual([3]);
      await writer.abort(); // after complete: nothing happens
      expect(await documents.countChunks(doc.id)).toBe(4);
    });

    it('aborted, writes nothing and leaves what was there', async () => {
      const user = await owner('es');
      const sparkId = (await spark(user)).id;
      const doc = await newDocument(user, sparkId);
      await documents.complete(doc.id, { ...figures, chunks: [chunk(1, 'antiguo')] });
      const writer = documents.openChunkWriter(doc.id);
      writer.write([chunk(1, 'harina'), chunk(2, 'levadura')], 'spanish');
      await new Promise((r) => setTimeout(r, 100));
      await writer.abort();
      await writer.abort();
      expect(await documents.countChunks(doc.id)).toBe(1);
      expect(await ftsPages(sparkId, 'spanish', 'antiguo')).toEqual([1]);
      expect(() => writer.write([chunk(3, 'tarde')], 'spanish')).toThrow(/ended/);
    });

    it('cut off by a crash (its connection killed), leaves nothing and lets the next run finish', async () => {
      const user = await owner('es');
      const sparkId = (await spark(user)).id;
      const doc = await newDocument(user, sparkId);
      const own = createDb(process.env.DATABASE_URL!, 1);
      try {
        const writer = new DocumentsRepository(own.db).openChunkWriter(doc.id);
        writer.write([chunk(1, 'harina'), chunk(2, 'levadura')], 'spanish');
        // Its one connection is the one inserting the chunks, in a transaction.
        const pid = await eventually(async () => {
          const r = await handle.pool.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE state = 'idle in transaction' AND query LIKE '%document_chunks%'`,
          );
          return r.rows[0]?.pid;
        });
        await handle.pool.query('SELECT pg_terminate_backend($1)', [pid]);
        await expect(writer.complete(figures)).rejects.toThrow();
      } finally {
        await own.close().catch(() => undefined);
      }
      expect(await documents.countChunks(doc.id)).toBe(0);
      expect((await documents.findById(doc.id))!.status).toBe('pending');

      const next = documents.openChunkWriter(doc.id);
      next.write([chunk(1, 'harina'), chunk(2, 'levadura')], 'spanish');
      await next.complete(figures);
      expect(await documents.countChunks(doc.id)).toBe(2);
    });

    it('a document deleted while its chunks are written: the deletion waits, then removes everything', async () => {
      const user = await owner('es');
      const sparkId = (await spark(user)).id;
      const doc = await newDocument(user, sparkId);
      const writer = documents.openChunkWriter(doc.id);
      writer.write([chunk(1, 'harina')], 'spanish');
      await new Promise((r) => setTimeout(r, 100));
      let deleted = false;
      const deletion = documents.deleteOwned(user.id, sparkId, doc.id).then((row) => (deleted = Boolean(row)));
      await new Promise((r) => setTimeout(r, 200));
      expect(deleted).toBe(false);
      await writer.complete(figures);
      await deletion;
      expect(deleted).toBe(true);
      expect(await documents.findById(doc.id)).toBeUndefined();
      expect(await documents.countChunks(doc.id)).toBe(0);
    });

    it('a document deleted before its first chunk: nothing is written and completing answers undefined', async () => {
      const user = await owner('es');
      const sparkId = (await spark(user)).id;
      const doc = await newDocument(user, sparkId);
      await documents.deleteOwned(user.id, sparkId, doc.id);
      const writer = documents.openChunkWriter(doc.id);
      writer.write([chunk(1, 'harina')], 'spanish');
      expect(await writer.complete(figures)).toBeUndefined();
      expect(await documents.countChunks(doc.id)).toBe(0);
    });
  });

  describe('time and memory bounds of the extraction threads', () => {
    const limits = { maxPages: 2000, maxChars: 5_000_000, maxStreamBytes: 64 << 20, maxInflatedBytes: 256 << 20 };
    const options = { limits, timeoutMs: 60_000, maxMemoryMb: 256, maxRssMb: 8192 };

    it('stops a file that takes too long (TIMEOUT) and goes on with a fresh thread', async () => {
      // Forty huge pages (seconds each to lay out) against a 10 s allowance: the reading cannot end in time on
      // any machine, while a fresh thread's start and a one-page file fit in it even on a loaded one. The
      // outcome is asserted, not the clock.
      const long = heavyPagesPdf(30_000, 40);
      const small = await makePdf([GUIDE_PAGES[0]]);
      const extractor = new PdfExtractor({
        ...options,
        limits: { ...limits, maxChars: 500_000_000 },
        timeoutMs: 10_000,
      });
      try {
        expect(await extractor.extract(small)).toMatchObject({ ok: true, pageCount: 1 }); // warm
        expect(await extractor.extract(long)).toEqual({ ok: false, code: 'TIMEOUT' });
        expect(await extractor.extract(small)).toMatchObject({ ok: true, pageCount: 1 });
      } finally {
        await extractor.close();
      }
    });

    it('stops a file that needs more memory than its thread may use (TOO_COMPLEX), without harm to the process', async () => {
      const extractor = new PdfExtractor({ ...options, maxMemoryMb: 8 });
      try {
        expect(await extractor.extract(await longPdf())).toEqual({ ok: false, code: 'TOO_COMPLEX' });
      } finally {
        await extractor.close();
      }
    });

    it('refuses more pages than allowed and more text than allowed', async () => {
      const extractor = new PdfExtractor({ ...options, limits: { ...limits, maxPages: 100, maxChars: 20_000 } });
      try {
        expect(await extractor.extract(await longPdf())).toEqual({
          ok: false,
          code: 'TOO_MANY_PAGES',
          params: { pages: 600, max: 100 },
        });
        expect(await extractor.extract(await makePdf(longPages(40)))).toEqual({
          ok: false,
          code: 'TOO_MUCH_TEXT',
          params: { max: 20_000 },
        });
      } finally {
        await extractor.close();
      }
    });
  });

  describe('the PDF readers: poppler in a bounded process, pdf.js in a bounded thread as its fallback', () => {
    const limits = { maxPages: 2000, maxChars: 5_000_000, maxStreamBytes: 64 << 20, maxInflatedBytes: 256 << 20 };
    const options: PdfTextReaderOptions = { limits, timeoutMs: 60_000, maxMemoryMb: 256, maxRssMb: 8192 };
    const poppler = findPoppler();
    const readers: Array<[PdfReaderName, (o?: Partial<PdfTextReaderOptions>) => PdfTextReader]> = [
      ['poppler', (o = {}) => new PdfTextReader({ ...options, ...o, poppler: poppler.tools })],
      ['pdfjs', (o = {}) => new PdfTextReader({ ...options, ...o })],
    ];
    /** The text of each page with white space collapsed, as chunks hold it. */
    const flat = (outcome: ReadOutcome) => (outcome.ok ? outcome.pages.map((p) => p.replace(/\s+/g, ' ')) : []);
    const withoutReader = ({ reader: _reader, fallback: _fallback, ...outcome }: ReadOutcome) => outcome;

    it('has poppler-utils to test with (npm test installs it), so that both readers are tested', () => {
      expect(poppler.tools ? 'found' : `${poppler.missing} is missing: apt-get install poppler-utils`).toBe('found');
    });

    describe.each(readers)('%s', (name, make) => {
      let reader: PdfTextReader;
      beforeAll(() => {
        reader = make();
      });
      afterAll(() => reader.close());

      it('hands out the passages while it reads (poppler), or all at the end (pdf.js), the same either way', async () => {
        const pdf = await longPdf();
        const calls: Array<{ pages: number[]; config: string }> = [];
        const { outcome, read, streamed } = await readPdfDocument(reader, pdf, 'en', (chunks, config) =>
          calls.push({ pages: chunks.map((c) => c.page), config }),
        );
        expect(outcome).toMatchObject({ ok: true, pageCount: 600, reader: name });
        expect(read).toEqual(readDocument(outcome.ok ? outcome.pages : [], 'en'));
        expect(read!.language).toBe('es');
        if (name === 'poppler') {
          expect(streamed).toBe(true);
          expect(calls.length).toBeGreaterThan(1);
          expect(calls.flatMap((c) => c.pages)).toEqual(read!.chunks.map((c) => c.page));
          expect(new Set(calls.map((c) => c.config))).toEqual(new Set(['spanish']));
        } else {
          expect(streamed).toBe(false);
          expect(calls).toEqual([]);
        }
      });

      it('reads every page of the Spanish guide, each sentence whole and on its own page', async () => {
        const outcome = await reader.extract(guia);
        expect(outcome).toMatchObject({ ok: true, pageCount: 4, reader: name });
        expect(outcome.fallback).toBeUndefined();
        const pages = flat(outcome);
        for (const { page, sentence } of sentencesOf(GUIA_PAGES)) {
          const on = pages.flatMap((text, i) => (text.includes(sentence) ? [i + 1] : []));
          expect({ sentence, on }).toEqual({ sentence, on: [page] });
        }
        // Chunked as the ingestion does: every sentence in exactly one passage, of the right page.
        const chunks = readDocument(outcome.ok ? outcome.pages : [], 'es')!.chunks;
        for (const { page, sentence } of sentencesOf(GUIA_PAGES)) {
          expect(chunks.filter((c) => c.content.includes(sentence)).map((c) => c.page)).toEqual([page]);
        }
      });

      it('spells out ligatures and keeps Spanish accents', async () => {
        const pages = flat(await reader.extract(ligaturesPdf()));
        expect(pages).toHaveLength(1);
        expect(pages[0]).toContain('La oficina financiera tiene un flujo eficaz.');
        expect(pages[0]).toContain('Información útil para el año que viene.');
      });

      it('keeps the paragraphs of a two-column page whole', async () => {
        const [page] = flat(await reader.extract(await twoColumnPdf()));
        for (const paragraph of [...TWO_COLUMNS.left, ...TWO_COLUMNS.right]) expect(page).toContain(paragraph);
      });

      it('reads a PDF encrypted with only an owner password (it opens without one), as before', async () => {
        const outcome = await reader.extract(await makePdf(GUIDE_PAGES, { ownerPasswordOnly: true }));
        expect(outcome).toMatchObject({ ok: true, pageCount: 3, reader: name });
        expect(flat(outcome)[2]).toContain('A puncture is repaired for free');
      });

      it('reads a scanned document as pages without text (then refused as NO_TEXT)', async () => {
        const outcome = await reader.extract(await makePdf([{ image: true }, { image: true }]));
        expect(outcome).toMatchObject({ ok: true, pageCount: 2, reader: name });
        expect(readDocument(outcome.ok ? outcome.pages : [], 'es')).toBeUndefined();
      });

      it.each([
        { what: 'a user password', file: () => makePdf(GUIA_PAGES, { userPassword: 'secreto' }), code: 'ENCRYPTED' },
        { what: 'a cut file', file: async () => (await makePdf(GUIA_PAGES)).subarray(0, 2500), code: 'TRUNCATED' },
        {
          what: 'garbage',
          file: () => Promise.resolve(Buffer.from(`%PDF-1.7\n${'garbage '.repeat(500)}\n%%EOF\n`)),
          code: 'MALFORMED',
        },
        { what: 'a decompression bomb', file: () => Promise.resolve(bombPdf(200)), code: 'TOO_COMPLEX' },
      ])('refuses $what as $code', async ({ file, code }) => {
        expect(withoutReader(await reader.extract(await file()))).toEqual({ ok: false, code });
      });

      it('refuses more pages than allowed and more text than allowed, naming the numbers', async () => {
        const strict = make({ limits: { ...limits, maxPages: 100, maxChars: 20_000 } });
        try {
          expect(withoutReader(await strict.extract(await longPdf()))).toEqual({
            ok: false,
            code: 'TOO_MANY_PAGES',
            params: { pages: 600, max: 100 },
          });
          expect(withoutReader(await strict.extract(await makePdf(longPages(40))))).toEqual({
            ok: false,
            code: 'TOO_MUCH_TEXT',
            params: { max: 20_000 },
          });
        } finally {
          await strict.close();
        }
      });

      it('stops a file that takes too long (TIMEOUT), and reads the next one', async () => {
        // As above: a reading that cannot end within 10 s, a next one that easily does; no clock asserted.
        const quick = make({ timeoutMs: 10_000, limits: { ...limits, maxChars: 500_000_000 } });
        try {
          expect(withoutReader(await quick.extract(heavyPagesPdf(30_000, 40)))).toEqual({ ok: false, code: 'TIMEOUT' });
          expect(await quick.extract(await makePdf([GUIDE_PAGES[0]]))).toMatchObject({ ok: true, pageCount: 1 });
        } finally {
          await quick.close();
        }
      });

      it('stops a reading, and one waiting for its turn, when asked (the job hit its time limit); then reads the next', async () => {
        const one = make({ concurrency: 1 });
        try {
          // Seconds of work for either reader (poppler gives it up to pdf.js after its budget).
          const heavy = heavyPagePdf(50_000);
          const stopFirst = new AbortController();
          const stopSecond = new AbortController();
          const first = one.extract(heavy, { signal: stopFirst.signal });
          const second = one.extract(heavy, { signal: stopSecond.signal }); // one file at a time: it waits
          await new Promise((r) => setTimeout(r, 300));
          stopSecond.abort();
          await expect(second).rejects.toBeInstanceOf(ExtractionInterrupted);
          stopFirst.abort();
          await expect(first).rejects.toBeInstanceOf(ExtractionInterrupted);
          expect(await one.extract(await makePdf([GUIDE_PAGES[0]]))).toMatchObject({ ok: true, pageCount: 1 });
        } finally {
          await one.close();
        }
      });

      it('refuses a file that needs more memory than allowed (TOO_COMPLEX), without harm to the process', async () => {
        const small = make({ maxMemoryMb: 8 });
        try {
          expect(withoutReader(await small.extract(await longPdf()))).toEqual({ ok: false, code: 'TOO_COMPLEX' });
        } finally {
          await small.close();
        }
      });
    });

    describe('what poppler leaves to pdf.js, which judges it as before', () => {
      const [, [, makePdfjs]] = readers;
      const both = async (file: Buffer, o: Partial<PdfTextReaderOptions> = {}) => {
        const first = readers[0][1](o);
        const second = makePdfjs(o);
        try {
          return [await first.extract(file), await second.extract(file)];
        } finally {
          await Promise.all([first.close(), second.close()]);
        }
      };

      it('a damaged page tree (poppler would drop a page and misnumber the next)', async () => {
        const [viaPoppler, pdfjs] = await both(brokenPageTreePdf());
        expect(viaPoppler).toMatchObject({ reader: 'pdfjs', fallback: expect.stringMatching(/Kid object/) });
        expect(withoutReader(viaPoppler)).toEqual(withoutReader(pdfjs));
      });

      it('a file poppler runs out of memory on (prlimit)', async () => {
        const file = heavyPagePdf(10_000);
        const [viaPoppler, pdfjs] = await both(file, { maxMemoryMb: 48 });
        expect(viaPoppler).toMatchObject({
          ok: true,
          reader: 'pdfjs',
          fallback: expect.stringMatching(/memory|bad_alloc|SIGABRT|SIGSEGV/i),
        });
        expect(withoutReader(viaPoppler)).toEqual(withoutReader(pdfjs));
        expect(flat(viaPoppler)[0]).toContain('La cigüeña del campanario vigilaba el pueblo');
      });

      it('a file poppler takes longer than its budget to read', async () => {
        const [viaPoppler, pdfjs] = await both(guia, { popplerBudgetMs: () => 0 });
        expect(viaPoppler).toMatchObject({ ok: true, pageCount: 4, fallback: expect.stringMatching(/took longer/) });
        expect(withoutReader(viaPoppler)).toEqual(withoutReader(pdfjs));
      });
    });
  });

  it('keeps files in an S3-compatible store (AWS SDK v3 against a local S3 endpoint)', async () => {
    const objects = new Map<string, Buffer>();
    const server = http.createServer((req, res) => {
      const key = decodeURIComponent(req.url!.split('?')[0]);
      const body: Buffer[] = [];
      req.on('data', (c: Buffer) => body.push(c));
      req.on('end', () => {
        if (req.method === 'PUT') {
          objects.set(key, Buffer.concat(body));
          res.writeHead(200, { ETag: '"x"' }).end();
        } else if (req.method === 'GET' || req.method === 'HEAD') {
          const found = objects.get(key);
          if (!found) {
            res.writeHead(404, { 'Content-Type': 'application/xml' });
            res.end(req.method === 'GET' ? '<Error><Code>NoSuchKey</Code><Message>no</Message></Error>' : undefined);
          } else {
            res.writeHead(200, { 'Content-Length': found.length, 'Content-Type': 'application/pdf' });
            res.end(req.method === 'GET' ? found : undefined);
          }
        } else if (req.method === 'DELETE') {
          objects.delete(key);
          res.writeHead(204).end();
        } else {
          res.writeHead(405).end();
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const storage = new S3Storage({
      bucket: 'sparks-docs',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      accessKeyId: 'test',
      secretAccessKey: 'test',
      prefix: 'it/',
      tmpDir: path.join(os.tmpdir(), `s3-${randomUUID()}`),
    });
    try {
      const local = path.join(os.tmpdir(), `${randomUUID()}.pdf`);
      fs.writeFileSync(local, guia);
      const key = `documents/${randomUUID()}.pdf`;
      await storage.putFile(key, local);
      expect(fs.existsSync(local)).toBe(false);
      expect(objects.get(`/sparks-docs/it/${key}`)?.equals(guia)).toBe(true);
      expect(await storage.exists(key)).toBe(true);
      expect((await storage.get(key)).equals(guia)).toBe(true);
      await storage.delete(key);
      expect(await storage.exists(key)).toBe(false);
      await expect(storage.get(key)).rejects.toBeInstanceOf(StoredFileMissing);
      await expect(storage.get('../escape.pdf')).rejects.toThrow(/invalid storage key/);
    } finally {
      storage.destroy();
      await new Promise((r) => server.close(r));
    }
  });

  describe('a worker killed in the middle of an ingestion', () => {
    const prefix = `${process.env.QUEUE_PREFIX}_kill`;
    const children: ChildProcess[] = [];
    let app: TestApp;

    const startWorker = (env: Record<string, string> = {}) => {
      const child = spawn(process.execPath, [path.join(ROOT, 'worker', 'dist', 'main.js')], {
        cwd: ROOT,
        env: {
          ...process.env,
          QUEUE_PREFIX: prefix,
          LOG_LEVEL: 'warn',
          // A dead worker's job goes to the next one after about a second.
          WORKER_LOCK_DURATION_MS: '1000',
          WORKER_STALLED_INTERVAL_MS: '500',
          ...env,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      return child;
    };

    beforeAll(async () => {
      app = await startApp({ QUEUE_PREFIX: prefix });
    });
    // Each test starts its own workers: none may take the next test's job.
    afterEach(async () => {
      const running = children.splice(0).filter((c) => c.exitCode === null && c.signalCode === null);
      await Promise.all(running.map(kill));
    });
    afterAll(async () => {
      await app.close();
    });

    /** A Spark and its builder conversation (the first worker, running, sends the sign-up code). */
    async function sparkOfNewUser(tag: string) {
      const user = await createUser(app, { language: 'es', tag });
      const userId = (await new AccountsRepository(handle.db).findUserByUsername(user.username))!.id;
      const sparkId = (await spark({ ...user, id: userId })).id;
      const conversationId = (await conversations.create(userId, { kind: 'builder', sparkId })).id;
      return { user, sparkId, conversationId };
    }

    /** Uploads the 600-page PDF; answers once a worker has begun reading it. */
    async function uploadLong({ user, sparkId, conversationId }: Awaited<ReturnType<typeof sparkOfNewUser>>) {
      const res = await app
        .http()
        .post('/api/v1/bucket')
        .set(...user.auth())
        .field('sparkId', sparkId)
        .field('conversationId', conversationId)
        .attach('file', await longPdf(), { filename: 'largo.pdf', contentType: 'application/pdf' })
        .expect(201);
      const id: string = res.body.data._id;
      await eventually(async () => (await documents.findById(id))?.status === 'inProgress', 30_000);
      return { id, sparkId, conversationId };
    }

    async function kill(worker: ChildProcess) {
      const exited = new Promise((r) => worker.once('exit', r));
      worker.kill('SIGKILL');
      await exited;
    }

    /** The next worker finishes the document: every chunk once, one "read" message. */
    async function expectFinishedOnce(doc: { id: string; sparkId: string; conversationId: string }) {
      startWorker();
      await eventually(async () => (await documents.findById(doc.id))?.status === 'completed', 90_000);
      const counts = await handle.pool.query<{ n: string; ords: string; max: number }>(
        'SELECT count(*) AS n, count(DISTINCT ord) AS ords, max(ord) AS max FROM document_chunks WHERE document_id = $1',
        [doc.id],
      );
      const { n, ords, max } = counts.rows[0];
      expect(Number(n)).toBeGreaterThan(600);
      expect(Number(ords)).toBe(Number(n));
      expect(Number(max)).toBe(Number(n) - 1);
      expect((await documents.findById(doc.id))!.pages).toBe(600);
      // One "read" message, however many workers tried.
      const read = (await conversations.history(doc.conversationId)).filter((m) => m.type === 'ai');
      expect(read).toHaveLength(1);
      expect(await ftsPages(doc.sparkId, 'spanish', '"capítulo 437"')).toContain(437);
    }

    it('while it reads: leaves the document to the next worker, which finishes it with no duplicate chunks', async () => {
      // The first worker also sends this run's mail (the sign-up code). It reads with pdf.js, several
      // times slower than poppler, so that it is surely still reading when it is killed.
      const first = startWorker({ INGEST_PDF_READER: 'pdfjs' });
      const doc = await uploadLong(await sparkOfNewUser('kill'));
      await kill(first);
      expect((await documents.findById(doc.id))!.status).toBe('inProgress');
      await expectFinishedOnce(doc);
    }, 150_000);

    it('while it writes the chunks of the pages read so far (poppler): nothing of it stays, the next worker finishes', async () => {
      if (!findPoppler().tools) throw new Error('poppler-utils is needed (apt-get install poppler-utils)');
      const first = startWorker({ INGEST_PDF_READER: 'poppler' });
      const who = await sparkOfNewUser('killwrite');
      // So that the first worker is surely killed with chunks written in its open transaction: after
      // each insert of this Spark's chunks, a trigger waits for an advisory lock the test holds.
      const LOCK = 61_061;
      const holder = await handle.pool.connect();
      await holder.query('SELECT pg_advisory_lock($1)', [LOCK]);
      await handle.pool.query(`
        CREATE FUNCTION test_hold_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF EXISTS (SELECT 1 FROM inserted WHERE spark_id = '${who.sparkId}') THEN
            PERFORM pg_advisory_xact_lock_shared(${LOCK});
          END IF;
          RETURN NULL;
        END $$;
        CREATE TRIGGER hold_chunks AFTER INSERT ON document_chunks
          REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION test_hold_chunks();`);
      const writing = `SELECT 1 FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%INSERT INTO document_chunks%'`;
      try {
        const doc = await uploadLong(who);
        await eventually(async () => {
          const waiting = await handle.pool.query(`${writing} AND wait_event = 'advisory'`);
          return waiting.rowCount === 1;
        }, 30_000);
        await kill(first);
        await holder.query('SELECT pg_advisory_unlock($1)', [LOCK]);
        // Its backend finds its client gone and rolls everything back.
        await eventually(async () => (await handle.pool.query(writing)).rowCount === 0, 30_000);
        expect(await documents.countChunks(doc.id)).toBe(0);
        expect((await documents.findById(doc.id))!.status).toBe('inProgress');
        await expectFinishedOnce(doc);
      } finally {
        await handle.pool.query(
          'DROP TRIGGER IF EXISTS hold_chunks ON document_chunks; DROP FUNCTION IF EXISTS test_hold_chunks()',
        );
        await holder.query('SELECT pg_advisory_unlock_all()');
        holder.release();
      }
    }, 150_000);
  });

  describe('a worker told to read PDFs with pdf.js only (INGEST_PDF_READER=pdfjs)', () => {
    const prefix = `${process.env.QUEUE_PREFIX}_pdfjs`;
    const children: ChildProcess[] = [];
    let app: TestApp;

    const startWorker = (env: Record<string, string>) => {
      const child = spawn(process.execPath, [path.join(ROOT, 'worker', 'dist', 'main.js')], {
        cwd: ROOT,
        env: { ...process.env, QUEUE_PREFIX: prefix, LOG_LEVEL: 'info', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const output = { text: '' };
      child.stdout.on('data', (b: Buffer) => (output.text += b.toString()));
      child.stderr.on('data', (b: Buffer) => (output.text += b.toString()));
      const exited = new Promise<number | null>((r) => child.once('exit', r));
      return { child, output, exited };
    };

    beforeAll(async () => {
      app = await startApp({ QUEUE_PREFIX: prefix });
    });
    afterAll(async () => {
      for (const c of children) c.kill('SIGKILL');
      await app.close();
    });

    it('reads with pdf.js, with the same pages and the same reasons', async () => {
      const worker = startWorker({ INGEST_PDF_READER: 'pdfjs' });
      const user = await createUser(app, { language: 'es', tag: 'pdfjs' });
      const userId = (await new AccountsRepository(handle.db).findUserByUsername(user.username))!.id;
      const sparkId = (await spark({ ...user, id: userId })).id;
      expect(worker.output.text).toContain('PDFs are read with pdf.js (INGEST_PDF_READER=pdfjs)');
      const send = (file: Buffer, name: string) =>
        app
          .http()
          .post('/api/v1/bucket')
          .set(...user.auth())
          .field('sparkId', sparkId)
          .attach('file', file, { filename: name, contentType: 'application/pdf' })
          .expect(201);
      const status = (id: string, wanted: string) =>
        eventually(async () => {
          const row = await documents.findById(id);
          return row?.status === wanted ? row : undefined;
        }, 30_000);

      const read = await status((await send(guia, 'guia.pdf')).body.data._id, 'completed');
      expect(read.pages).toBe(4);
      expect(await ftsPages(sparkId, 'spanish', 'envíos Canarias')).toEqual([3]);
      const locked = await send(await makePdf(GUIA_PAGES, { userPassword: 'secreto' }), 'cerrado.pdf');
      expect((await status(locked.body.data._id, 'error')).error).toBe('ENCRYPTED');
      expect(worker.output.text).not.toMatch(/read with pdf\.js: poppler/);
    });

    it('refuses to start with a wrong INGEST_PDF_READER or PDFTOTEXT_PATH, naming the setting', async () => {
      const wrong = startWorker({ INGEST_PDF_READER: 'xpdf' });
      expect(await wrong.exited).not.toBe(0);
      expect(wrong.output.text).toContain('INGEST_PDF_READER must be one of auto, poppler, pdfjs');
      const missing = startWorker({ INGEST_PDF_READER: 'poppler', PDFTOTEXT_PATH: '/nonexistent/pdftotext' });
      expect(await missing.exited).not.toBe(0);
      expect(missing.output.text).toContain('INGEST_PDF_READER=poppler, but /nonexistent/pdftotext was not found');
    });
  });
});
