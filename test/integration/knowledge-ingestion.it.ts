import fs from 'node:fs';
import path from 'node:path';
import { bombPdf, GUIA_PAGES, GUIDE_PAGES, makePdf, sentencesOf, type PageSpec } from './fixtures/pdfs';
import { DocumentsService } from '../../api/src/knowledge/documents.service';
import { eventually, type SignedUser } from './harness';
import { newFiles, STORAGE_DIR, storedFiles, tmpLeftovers, useKnowledgeApp, type Owner } from './support/knowledge';

/** The whole path of a document: upload, storage, ingestion by the suite's worker, what the Spark read. */
describe('knowledge: a PDF uploaded, read, searched, answered from and deleted', () => {
  const k = useKnowledgeApp();
  const { owner, spark, upload, waitForStatus, ftsPages } = k;

  describe('a Spanish PDF, uploaded from the chat', () => {
    let user: Owner;
    let sparkId: string;
    let conversationId: string;
    let documentId: string;

    beforeAll(async () => {
      user = await owner('es');
      sparkId = (await spark(user)).id;
      conversationId = (await k.conversations.create(user.id, { kind: 'builder', sparkId })).id;
      const res = await upload(user, { sparkId, conversationId }, k.guia, 'Guía de la panadería.pdf').expect(201);
      documentId = res.body.data._id;
      expect(res.body.data).toMatchObject({ name: 'Guía de la panadería.pdf', status: 'pending', duplicate: false });
      expect(res.body.data.bucketFileId).toMatch(/^[0-9a-f-]{36}$/);
      await waitForStatus(user, sparkId, documentId, 'completed');
    });

    it('stores the file under a generated id, never under its name', async () => {
      const row = await k.documents.findById(documentId);
      expect(row!.storageKey).toMatch(/^documents\/[0-9a-f-]{36}\.pdf$/);
      expect(storedFiles()).toContain(row!.storageKey);
      expect(fs.readFileSync(path.join(STORAGE_DIR, row!.storageKey)).equals(k.guia)).toBe(true);
      expect(tmpLeftovers()).toEqual([]);
    });

    it('reads every page, in Spanish, with the page count and characters', async () => {
      const res = await k.t
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
      const chat = await k.testChat(user, sparkId, 'Preguntas');
      const ask = async (text: string) => (await chat(text)).ai.data.content as string;
      const hours = await ask('¿Abrís los domingos?');
      expect(hours).toContain('Guía de la panadería, página 1');
      expect(hours).toContain('14:00');
      const islands = await ask('¿Cuánto tardan los envíos a Canarias?');
      expect(islands).toContain('Guía de la panadería, página 3');
      expect(islands).toContain('cinco días hábiles');
      const allergens = await ask('¿Tenéis pan sin gluten?');
      expect(allergens).toContain('página 4');
      expect(await ask('¿Hacéis pizzas a domicilio los lunes por la noche?')).toMatch(
        /^Lo siento, no encuentro información/,
      );
    });

    it('keeps every sentence whole, in exactly one chunk, on its page', async () => {
      const chunks = await k.documents.chunksOf(documentId);
      for (const { page, sentence } of sentencesOf(GUIA_PAGES)) {
        const holding = chunks.filter((c) => c.content.includes(sentence));
        expect({ sentence, pages: holding.map((c) => c.page) }).toEqual({ sentence, pages: [page] });
      }
      expect(chunks.map((c) => c.ord)).toEqual(chunks.map((_, i) => i));
    });

    it('tells the conversation: "you uploaded" first, then what it read, in the owner’s language', async () => {
      const history = await k.conversations.history(conversationId);
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
      const res = await k.t
        .http()
        .get(`/api/v1/objectives/${sparkId}?lang=en`)
        .set(...user.auth())
        .expect(200);
      const knowledge = res.body.data.find((o: { _id: string }) => o._id === 'knowledge');
      expect(knowledge.status).toBe('completed');
      expect(knowledge.steps).toEqual([expect.objectContaining({ _id: 'knowledge.upload', status: 'completed' })]);
    });

    it('shows the owner what it read, page by page', async () => {
      const res = await k.t
        .http()
        .get(`/api/v1/sparks/${sparkId}/documents/${documentId}/pages`)
        .set(...user.auth())
        .expect(200);
      const view = res.body.data;
      expect(view).toMatchObject({ total: 4, emptyPages: [], offset: 0 });
      expect(view.pages.map((p: { page: number }) => p.page)).toEqual([1, 2, 3, 4]);
      expect(view.pages[2].text).toContain('Los envíos a las islas Canarias y Baleares tardan cinco días hábiles');
      expect(view.pages.every((p: { noText: boolean }) => !p.noText)).toBe(true);
      const second = await k.t
        .http()
        .get(`/api/v1/sparks/${sparkId}/documents/${documentId}/pages?offset=2&limit=1`)
        .set(...user.auth())
        .expect(200);
      expect(second.body.data.pages.map((p: { page: number }) => p.page)).toEqual([3]);
    });

    it('answers the same file again with the same document: no second file, no duplicate chunks', async () => {
      const before = await k.documents.countChunks(documentId);
      const filesBefore = storedFiles();
      const res = await upload(user, { sparkId, conversationId }, k.guia, 'copia.pdf').expect(201);
      expect(res.body.data).toMatchObject({ _id: documentId, status: 'completed', duplicate: true });
      expect(await k.documents.countChunks(documentId)).toBe(before);
      expect(newFiles(filesBefore)).toEqual([]);
      const history = await k.conversations.history(conversationId);
      expect(history.slice(-2).map((m) => [m.type, m.data.type, m.data.documentId])).toEqual([
        ['human', 'document', documentId],
        ['ai', 'document', documentId],
      ]);
    });

    it('says whether a chat message is a document upload (POST /llm/load-doc-message)', async () => {
      const ask = (body: object, who: SignedUser = user) =>
        k.t
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
      const key = (await k.documents.findById(id))!.storageKey;
      expect(await k.documents.countChunks(id)).toBeGreaterThan(0);

      const res = await k.t
        .http()
        .delete(`/api/v1/sparks/${sparkId}/documents/${id}`)
        .set(...user.auth())
        .expect(200);
      expect(res.body.data).toEqual({ _id: id, deleted: true });
      expect(await k.documents.countChunks(id)).toBe(0);
      expect(storedFiles()).not.toContain(key);
      await k.t
        .http()
        .get(`/api/v1/sparks/${sparkId}/documents/${id}`)
        .set(...user.auth())
        .expect(404);
      await k.t
        .http()
        .delete(`/api/v1/sparks/${sparkId}/documents/${id}`)
        .set(...user.auth())
        .expect(404);
      // The other document is untouched.
      expect(await k.documents.countChunks(documentId)).toBeGreaterThan(0);
    });
  });

  it('reads an English PDF in English, for an English-speaking owner', async () => {
    const user = await owner('en');
    const sparkId = (await spark(user, 'en')).id;
    const conversationId = (await k.conversations.create(user.id, { kind: 'builder', sparkId })).id;
    const res = await upload(user, { sparkId, conversationId }, await makePdf(GUIDE_PAGES), 'harbour.pdf').expect(201);
    const doc = await waitForStatus(user, sparkId, res.body.data._id, 'completed');
    expect(doc).toMatchObject({ pages: 3, language: 'en' });
    expect(await ftsPages(sparkId, 'english', 'electric bikes helmet')).toEqual([2]);
    expect(await ftsPages(sparkId, 'english', 'puncture lock')).toEqual([3]);
    const [, read] = await k.conversations.history(conversationId);
    expect(read.data.content).toMatch(
      /^I've read \*\*harbour\.pdf\*\*: 3 pages, [\d,]+ characters\. It begins with: “[^”]+”(; “[^”]+”)*\.$/,
    );
  });

  it('flags a page with no text (a scan inside a text PDF) but reads the rest', async () => {
    const user = await owner('en');
    const sparkId = (await spark(user, 'en')).id;
    const conversationId = (await k.conversations.create(user.id, { kind: 'builder', sparkId })).id;
    const pages: PageSpec[] = [GUIDE_PAGES[0], { image: true }, GUIDE_PAGES[1]];
    const res = await upload(user, { sparkId, conversationId }, await makePdf(pages), 'mixed.pdf').expect(201);
    const id = res.body.data._id;
    await waitForStatus(user, sparkId, id, 'completed');
    const view = (
      await k.t
        .http()
        .get(`/api/v1/sparks/${sparkId}/documents/${id}/pages`)
        .set(...user.auth())
        .expect(200)
    ).body.data;
    expect(view.emptyPages).toEqual([2]);
    expect(view.pages.map((p: { noText: boolean }) => p.noText)).toEqual([false, true, false]);
    const [, read] = await k.conversations.history(conversationId);
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
      const conversationId = (await k.conversations.create(user.id, { kind: 'builder', sparkId })).id;
      const res = await upload(user, { sparkId, conversationId }, await file(), 'malo.pdf').expect(201);
      const id = res.body.data._id;
      const doc = await waitForStatus(user, sparkId, id, 'error');
      expect(doc.error).toBe(code);
      expect(doc.errorMessage).toMatch(es);
      expect(await k.documents.countChunks(id)).toBe(0);
      const key = (await k.documents.findById(id))!.storageKey;
      await eventually(() => Promise.resolve(!storedFiles().includes(key)));
      const [uploaded, failed] = await k.conversations.history(conversationId);
      expect(uploaded.data).toMatchObject({ type: 'document', documentId: id });
      expect(failed.data).toMatchObject({ type: 'document', documentId: id, status: 'error', error: code });
      expect(failed.data.content).toMatch(/^No he podido leer \*\*malo\.pdf\*\*\. /);
      expect(failed.data.content).toMatch(es);
      const objectives = await k.t
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
    const key = (await k.documents.findById(id))!.storageKey;
    await eventually(() => Promise.resolve(!storedFiles().includes(key)));

    const again = await upload(user, { sparkId }, encrypted, 'locked.pdf').expect(201);
    expect(again.body.data).toMatchObject({ _id: id, status: 'pending', duplicate: true });
    const doc = await waitForStatus(user, sparkId, id, 'error');
    expect(doc.error).toBe('ENCRYPTED');
    expect(await k.documents.listForSpark(user.id, sparkId)).toHaveLength(1);
  });

  it("removes every document of a Spark, with their files, before the Spark's deletion", async () => {
    const user = await owner('en');
    const sparkId = (await spark(user, 'en')).id;
    const ids: string[] = [];
    for (const page of GUIDE_PAGES) ids.push((await upload(user, { sparkId }, await makePdf([page]))).body.data._id);
    for (const id of ids) await waitForStatus(user, sparkId, id, 'completed');
    const keys = await Promise.all(ids.map(async (id) => (await k.documents.findById(id))!.storageKey));
    expect(await k.t.app.get(DocumentsService).removeAllOfSpark(user.id, sparkId)).toBe(3);
    expect(await k.documents.listForSpark(user.id, sparkId)).toEqual([]);
    for (const key of keys) expect(storedFiles()).not.toContain(key);
    expect(await ftsPages(sparkId, 'english', 'bikes')).toEqual([]);
  });
});
