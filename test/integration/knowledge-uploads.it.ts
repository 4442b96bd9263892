import { MAX_UPLOAD_BYTES } from '@sparks/contracts';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { GUIDE_PAGES, makePdf, scanPng } from './fixtures/pdfs';
import { newFiles, STORAGE_DIR, storedFiles, tmpLeftovers, useKnowledgeApp, type Owner } from './support/knowledge';

/** What the upload endpoint refuses before reading a document, and the plan's limit on documents. */
describe("knowledge: uploads refused and the plan's document limit", () => {
  const k = useKnowledgeApp();
  const { owner, spark, upload, waitForStatus } = k;

  describe('uploads refused at the door leave nothing behind', () => {
    let user: Owner;
    let sparkId: string;
    const nothingLeft = async (id: string) => {
      expect(await k.documents.listForSpark(user.id, id)).toEqual([]);
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
        {
          code: 'INCORRECT_FORMAT_DETAIL',
          message: 'Please upload a PDF, a Word document (.docx) or a text file (.txt, .md).',
          field: 'file',
        },
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
        'Por favor, sube un PDF, un documento de Word (.docx) o un archivo de texto (.txt, .md).',
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
      const server = k.t.app.getHttpServer() as http.Server;
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
      await k.t
        .http()
        .delete(`/api/v1/sparks/${sparkId}/documents/${doc._id}`)
        .set(...user.auth())
        .expect(200);
    });

    it('a path-traversal file name is only display text; the file lands under a generated id', async () => {
      const pdf = await makePdf([GUIDE_PAGES[2]]);
      const res = await upload(user, { sparkId }, pdf, '../../../../tmp/evil.pdf').expect(201);
      expect(res.body.data.name).toBe('evil.pdf');
      const row = await k.documents.findById(res.body.data._id);
      expect(row!.storageKey).toBe(`documents/${res.body.data.bucketFileId}.pdf`);
      expect(fs.existsSync(path.join(STORAGE_DIR, row!.storageKey))).toBe(true);
      const named = await upload(
        user,
        { sparkId, name: '..\\..\\win.ini\\notes.pdf' },
        await makePdf([GUIDE_PAGES[1]]),
      ).expect(201);
      expect(named.body.data.name).toBe('notes.pdf');
      // Every stored file, this test's and the other files' of the run (uploads and document sharing store .docx,
      // .txt and .md too), sits under a generated id: no name escaped into a path.
      for (const f of storedFiles()) expect(f).toMatch(/^documents\/[0-9a-f-]{36}\.(pdf|docx|txt|md)$/);
      for (const id of [res.body.data._id, named.body.data._id]) {
        await waitForStatus(user, sparkId, id, 'completed');
        await k.t
          .http()
          .delete(`/api/v1/sparks/${sparkId}/documents/${id}`)
          .set(...user.auth())
          .expect(200);
      }
    });

    it('another user’s Spark or conversation → 404, and its documents cannot be listed, read or deleted', async () => {
      const stranger = await owner('en');
      const before = storedFiles();
      await upload(stranger, { sparkId }, k.guia).expect(404);
      const theirs = (await spark(stranger, 'en')).id;
      const myConversation = (await k.conversations.create(user.id, { kind: 'builder', sparkId })).id;
      await upload(stranger, { sparkId: theirs, conversationId: myConversation }, k.guia).expect(404);
      // A conversation of the same owner but of another Spark is not a place for this upload either.
      const otherSpark = (await spark(user, 'en')).id;
      await upload(user, { sparkId: otherSpark, conversationId: myConversation }, k.guia).expect(404);
      expect(newFiles(before)).toEqual([]);
      expect(tmpLeftovers()).toEqual([]);

      const mine = await upload(user, { sparkId }, await makePdf([GUIDE_PAGES[0]])).expect(201);
      const id = mine.body.data._id;
      const base = `/api/v1/sparks/${sparkId}/documents`;
      await k.t
        .http()
        .get(base)
        .set(...stranger.auth())
        .expect(404);
      await k.t
        .http()
        .get(`${base}/${id}`)
        .set(...stranger.auth())
        .expect(404);
      await k.t
        .http()
        .get(`${base}/${id}/pages`)
        .set(...stranger.auth())
        .expect(404);
      await k.t
        .http()
        .delete(`${base}/${id}`)
        .set(...stranger.auth())
        .expect(404);
      await k.t
        .http()
        .get(`/api/v1/sparks/${theirs}/documents/${id}`)
        .set(...stranger.auth())
        .expect(404);
      expect(await k.documents.findById(id)).toBeDefined();
      await k.t.http().get(base).expect(401);
      await k.t.http().post('/api/v1/bucket').field('sparkId', sparkId).attach('file', k.guia, 'guia.pdf').expect(401);
      await waitForStatus(user, sparkId, id, 'completed');
      await k.t
        .http()
        .delete(`${base}/${id}`)
        .set(...user.auth())
        .expect(200);
    });

    it('answers a missing file, a missing Spark and a non-multipart body with 400', async () => {
      await k.t
        .http()
        .post('/api/v1/bucket')
        .set(...user.auth())
        .field('sparkId', sparkId)
        .expect(400);
      const noSpark = await k.t
        .http()
        .post('/api/v1/bucket')
        .set(...user.auth())
        .attach('file', k.guia, 'guia.pdf')
        .expect(400);
      expect(noSpark.body.errors[0]).toMatchObject({ code: 'REQUIRED', field: 'sparkId' });
      await k.t
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
        await k.documents.createWithinLimit(
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
      const res = await upload(user, { sparkId }, k.guia).expect(402);
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([
        'Document limit reached!',
        'For the moment, you cannot upload more documents. Would you like to upgrade your plan?',
      ]);
      expect(await k.documents.listForSpark(user.id, sparkId)).toHaveLength(10);
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
      expect(await k.documents.listForSpark(user.id, sparkId)).toHaveLength(10);
    });
  });
});
