import { BillingRepository, createDb, DocumentsRepository } from '@sparks/db';
import { DocumentIntake } from '@sparks/domain';
import { randomUUID } from 'node:crypto';
import { eventually } from './harness';
import { useKnowledgeApp, type Owner } from './support/knowledge';

/** How a document's chunks are written: replaced on a second indexing, and streamed by the chunk writer. */
describe('knowledge: the chunks of a document (DocumentsRepository)', () => {
  const k = useKnowledgeApp();
  const { owner, spark, ftsPages } = k;

  it('replaces, never adds to, the chunks of a document indexed twice', async () => {
    const user = await owner('es');
    const sparkId = (await spark(user)).id;
    const created = await k.documents.createWithinLimit(
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
    await k.documents.complete(created.document.id, result);
    await k.documents.complete(created.document.id, result);
    expect(await k.documents.countChunks(created.document.id)).toBe(2);
    expect(await ftsPages(sparkId, 'spanish', 'gluten')).toEqual([2]);
  });

  describe('chunks written while the document is still being read (the chunk writer)', () => {
    const chunk = (page: number, word: string) => ({ page, content: `En la página ${page} se habla de ${word}.` });
    const figures = { pages: 3, chars: 120, language: 'es' as const, config: 'spanish' as const };

    async function newDocument(user: Owner, sparkId: string, conversationId: string | null = null) {
      const created = await k.documents.createWithinLimit(
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
      const conversationId = (await k.conversations.create(user.id, { kind: 'builder', sparkId })).id;
      const doc = await newDocument(user, sparkId, conversationId);
      await k.documents.complete(doc.id, { ...figures, chunks: [chunk(1, 'antiguo')] }); // a previous run

      // The owner's message goes with the completed document: the rule of DocumentIntake (@sparks/domain).
      const intake = new DocumentIntake(k.documents, k.conversations, new BillingRepository(k.handle.db));
      const writer = intake.openChunkWriter(doc.id);
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
      const rows = await k.handle.pool.query<{ ord: number; page: number; content: string }>(
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
      expect(await k.documents.countChunks(doc.id)).toBe(4);
    });

    it('aborted, writes nothing and leaves what was there', async () => {
      const user = await owner('es');
      const sparkId = (await spark(user)).id;
      const doc = await newDocument(user, sparkId);
      await k.documents.complete(doc.id, { ...figures, chunks: [chunk(1, 'antiguo')] });
      const writer = k.documents.openChunkWriter(doc.id);
      writer.write([chunk(1, 'harina'), chunk(2, 'levadura')], 'spanish');
      await new Promise((r) => setTimeout(r, 100));
      await writer.abort();
      await writer.abort();
      expect(await k.documents.countChunks(doc.id)).toBe(1);
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
          const r = await k.handle.pool.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction' AND query LIKE '%document_chunks%'`,
          );
          return r.rows[0]?.pid;
        });
        await k.handle.pool.query('SELECT pg_terminate_backend($1)', [pid]);
        await expect(writer.complete(figures)).rejects.toThrow();
      } finally {
        await own.close().catch(() => undefined);
      }
      expect(await k.documents.countChunks(doc.id)).toBe(0);
      expect((await k.documents.findById(doc.id))!.status).toBe('pending');

      const next = k.documents.openChunkWriter(doc.id);
      next.write([chunk(1, 'harina'), chunk(2, 'levadura')], 'spanish');
      await next.complete(figures);
      expect(await k.documents.countChunks(doc.id)).toBe(2);
    });

    it('a document deleted while its chunks are written: the deletion waits, then removes everything', async () => {
      const user = await owner('es');
      const sparkId = (await spark(user)).id;
      const doc = await newDocument(user, sparkId);
      const writer = k.documents.openChunkWriter(doc.id);
      writer.write([chunk(1, 'harina')], 'spanish');
      await new Promise((r) => setTimeout(r, 100));
      let deleted = false;
      const deletion = k.documents.deleteOwned(user.id, sparkId, doc.id).then((row) => (deleted = Boolean(row)));
      await new Promise((r) => setTimeout(r, 200));
      expect(deleted).toBe(false);
      await writer.complete(figures);
      await deletion;
      expect(deleted).toBe(true);
      expect(await k.documents.findById(doc.id)).toBeUndefined();
      expect(await k.documents.countChunks(doc.id)).toBe(0);
    });

    it('a document deleted before its first chunk: nothing is written and completing answers undefined', async () => {
      const user = await owner('es');
      const sparkId = (await spark(user)).id;
      const doc = await newDocument(user, sparkId);
      await k.documents.deleteOwned(user.id, sparkId, doc.id);
      const writer = k.documents.openChunkWriter(doc.id);
      writer.write([chunk(1, 'harina')], 'spanish');
      expect(await writer.complete(figures)).toBeUndefined();
      expect(await k.documents.countChunks(doc.id)).toBe(0);
    });
  });
});
