import { AccountsRepository } from '@sparks/db';
import { findPoppler } from '@sparks/knowledge';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { GUIA_PAGES, makePdf } from './fixtures/pdfs';
import { createUser, eventually, startApp, type TestApp } from './harness';
import { ROOT } from './paths';
import { longPdf, useKnowledgeApp } from './support/knowledge';

/** SIGKILL, then waits for the exit. */
async function kill(worker: ChildProcess) {
  const exited = new Promise((r) => worker.once('exit', r));
  worker.kill('SIGKILL');
  await exited;
}

/** Ingestion with workers this file starts and kills, on queues of their own. */
describe('knowledge: workers of their own (killed mid-ingestion, pdf.js only)', () => {
  const k = useKnowledgeApp();
  const { spark, ftsPages } = k;

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
          // A killed worker's job is taken again within about 6 s, and a live one that holds its event loop for a
          // second or two while it writes 600 pages of chunks keeps its job. With 1 s such a job could be judged
          // stalled and the document left to the sweep: the likely cause of one 90 s timeout in CI.
          WORKER_LOCK_DURATION_MS: '5000',
          WORKER_STALLED_INTERVAL_MS: '1000',
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
      const userId = (await new AccountsRepository(k.handle.db).findUserByUsername(user.username))!.id;
      const sparkId = (await spark({ ...user, id: userId })).id;
      const conversationId = (await k.conversations.create(userId, { kind: 'builder', sparkId })).id;
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
      await eventually(async () => (await k.documents.findById(id))?.status === 'inProgress', 30_000);
      return { id, sparkId, conversationId };
    }

    /** The next worker finishes the document: every chunk once, one "read" message. */
    async function expectFinishedOnce(doc: { id: string; sparkId: string; conversationId: string }) {
      startWorker();
      await eventually(async () => (await k.documents.findById(doc.id))?.status === 'completed', 90_000);
      const counts = await k.handle.pool.query<{ n: string; ords: string; max: number }>(
        'SELECT count(*) AS n, count(DISTINCT ord) AS ords, max(ord) AS max FROM document_chunks WHERE document_id = $1',
        [doc.id],
      );
      const { n, ords, max } = counts.rows[0];
      expect(Number(n)).toBeGreaterThan(600);
      expect(Number(ords)).toBe(Number(n));
      expect(Number(max)).toBe(Number(n) - 1);
      expect((await k.documents.findById(doc.id))!.pages).toBe(600);
      // One "read" message, however many workers tried.
      const read = (await k.conversations.history(doc.conversationId)).filter((m) => m.type === 'ai');
      expect(read).toHaveLength(1);
      expect(await ftsPages(doc.sparkId, 'spanish', '"capítulo 437"')).toContain(437);
    }

    it('while it reads: leaves the document to the next worker, which finishes it with no duplicate chunks', async () => {
      // The first worker also sends this run's mail (the sign-up code). It reads with pdf.js, several
      // times slower than poppler, so that it is surely still reading when it is killed.
      const first = startWorker({ INGEST_PDF_READER: 'pdfjs' });
      const doc = await uploadLong(await sparkOfNewUser('kill'));
      await kill(first);
      expect((await k.documents.findById(doc.id))!.status).toBe('inProgress');
      await expectFinishedOnce(doc);
    }, 150_000);

    it('while it writes the chunks of the pages read so far (poppler): nothing of it stays, the next worker finishes', async () => {
      if (!findPoppler().tools) throw new Error('poppler-utils is needed (apt-get install poppler-utils)');
      const first = startWorker({ INGEST_PDF_READER: 'poppler' });
      const who = await sparkOfNewUser('killwrite');
      // So that the first worker is surely killed with chunks written in its open transaction: after
      // each insert of this Spark's chunks, a trigger waits for an advisory lock the test holds.
      const LOCK = 61_061;
      const holder = await k.handle.pool.connect();
      await holder.query('SELECT pg_advisory_lock($1)', [LOCK]);
      await k.handle.pool.query(`
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
          const waiting = await k.handle.pool.query(`${writing} AND wait_event = 'advisory'`);
          return waiting.rowCount === 1;
        }, 30_000);
        await kill(first);
        await holder.query('SELECT pg_advisory_unlock($1)', [LOCK]);
        // Its backend finds its client gone and rolls everything back.
        await eventually(async () => (await k.handle.pool.query(writing)).rowCount === 0, 30_000);
        expect(await k.documents.countChunks(doc.id)).toBe(0);
        expect((await k.documents.findById(doc.id))!.status).toBe('inProgress');
        await expectFinishedOnce(doc);
      } finally {
        await k.handle.pool.query(
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
      // Waited for: a child's pipes and process handle would otherwise keep Jest alive after the run.
      await Promise.all(children.filter((c) => c.exitCode === null && c.signalCode === null).map(kill));
      await app.close();
    });

    it('reads with pdf.js, with the same pages and the same reasons', async () => {
      const worker = startWorker({ INGEST_PDF_READER: 'pdfjs' });
      const user = await createUser(app, { language: 'es', tag: 'pdfjs' });
      const userId = (await new AccountsRepository(k.handle.db).findUserByUsername(user.username))!.id;
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
          const row = await k.documents.findById(id);
          return row?.status === wanted ? row : undefined;
        }, 30_000);

      const read = await status((await send(k.guia, 'guia.pdf')).body.data._id, 'completed');
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
