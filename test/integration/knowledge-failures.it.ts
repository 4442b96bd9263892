import {
  AccountsRepository,
  ConversationsRepository,
  createDb,
  DocumentsRepository,
  SparksRepository,
  type DbHandle,
} from '@sparks/db';
import { createRedis, JobProducer } from '@sparks/queues';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GUIA_PAGES, GUIDE_PAGES, makePdf } from './fixtures/pdfs';
import { createUser, eventually, startApp, type SignedUser, type TestApp } from './harness';
import { ROOT } from './paths';

const STORAGE_DIR = process.env.STORAGE_DIR!;

interface Owner extends SignedUser {
  id: string;
}

/**
 * What is left when an upload or an ingestion fails half-way: nothing of an upload that failed, and
 * every document ends `completed` or `error`, whatever stalls or disappears under it.
 */
describe('knowledge: failures leave nothing half-done', () => {
  let t: TestApp;
  let handle: DbHandle;
  let documents: DocumentsRepository;
  let conversations: ConversationsRepository;
  let guia: Buffer;

  beforeAll(async () => {
    t = await startApp();
    handle = createDb(process.env.DATABASE_URL!, 4);
    documents = new DocumentsRepository(handle.db);
    conversations = new ConversationsRepository(handle.db);
    guia = await makePdf(GUIA_PAGES);
  });
  afterAll(async () => {
    await t.close();
    await handle.close();
  });

  async function owner(app: TestApp, language: 'es' | 'en' = 'es'): Promise<Owner> {
    const user = await createUser(app, { language, tag: 'fail' });
    const row = await new AccountsRepository(handle.db).findUserByUsername(user.username);
    return { ...user, id: row!.id };
  }

  /** A Spark of the user and its builder conversation. */
  async function sparkOf(user: Owner, language: 'es' | 'en' = 'es') {
    const spark = await new SparksRepository(handle.db).create(user.id, {
      name: 'Panadería',
      options: {
        isTest: false,
        initialMessage: 'Hola',
        level: 'PUBLIC',
        sysPrompt: 'Eres el asistente de la panadería.',
        language,
      },
    });
    const conversation = await conversations.create(user.id, { kind: 'builder', sparkId: spark.id });
    return { sparkId: spark.id, conversationId: conversation.id };
  }

  function upload(app: TestApp, user: SignedUser, fields: Record<string, string>, file: Buffer, filename = 'guia.pdf') {
    const req = app
      .http()
      .post('/api/v1/bucket')
      .set(...user.auth());
    for (const [k, v] of Object.entries(fields)) void req.field(k, v);
    return req.attach('file', file, { filename, contentType: 'application/pdf' });
  }

  function filesUnder(dir: string): string[] {
    const walk = (d: string): string[] =>
      fs.existsSync(d)
        ? fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
            const full = path.join(d, e.name);
            return e.isDirectory() ? walk(full) : [path.relative(dir, full)];
          })
        : [];
    return walk(dir);
  }
  const storedDocuments = () => filesUnder(path.join(STORAGE_DIR, 'documents'));

  const countDocuments = async (sparkId: string) =>
    Number(
      (await handle.pool.query<{ n: string }>('SELECT count(*) AS n FROM documents WHERE spark_id = $1', [sparkId]))
        .rows[0].n,
    );

  describe('an upload is all or nothing', () => {
    it('a chat message that cannot be written → 503 in the owner’s language; no document, no file, not counted', async () => {
      const user = await owner(t, 'es');
      const { sparkId, conversationId } = await sparkOf(user);
      // Nine documents already: an orphan of the failed upload would take the tenth place.
      for (let i = 0; i < 9; i++) {
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
      const fn = `test_refuse_${conversationId.replace(/-/g, '')}`;
      await handle.pool.query(`
        CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'messages of this conversation are refused'; END $$;
        CREATE TRIGGER ${fn} BEFORE INSERT ON messages FOR EACH ROW
          WHEN (NEW.conversation_id = '${conversationId}'::uuid) EXECUTE FUNCTION ${fn}();`);
      const before = storedDocuments();
      let res: Awaited<ReturnType<typeof upload>>;
      try {
        res = await upload(t, user, { sparkId, conversationId }, guia);
      } finally {
        await handle.pool.query(`DROP TRIGGER IF EXISTS ${fn} ON messages; DROP FUNCTION IF EXISTS ${fn}()`);
      }
      expect(await countDocuments(sparkId)).toBe(9);
      expect(await conversations.history(conversationId)).toEqual([]);
      expect(storedDocuments()).toEqual(before);
      expect(filesUnder(path.join(STORAGE_DIR, '.tmp'))).toEqual([]);
      expect(res.status).toBe(503);
      expect(res.body.errors).toEqual([
        {
          code: 'UPLOAD_FAILED',
          message: 'No se ha podido guardar el archivo y no se ha conservado nada. Inténtalo de nuevo en unos minutos.',
        },
      ]);
      // The tenth place is still free.
      const next = await upload(t, user, { sparkId, conversationId }, await makePdf([GUIA_PAGES[0]])).expect(201);
      expect(next.body.data.duplicate).toBe(false);
      expect(await countDocuments(sparkId)).toBe(10);
    });

    it('a job that cannot be queued (Redis refuses it) → 503; no document, no message, no file', async () => {
      const user = await owner(t, 'en');
      const { sparkId, conversationId } = await sparkOf(user, 'en');
      const redis = createRedis(process.env.REDIS_URL!);
      // BullMQ numbers every job it adds from this counter; a value that is not a number makes the add fail.
      const counter = `${process.env.QUEUE_PREFIX}:ingestion:id`;
      await redis.set(counter, 'not a number');
      const before = storedDocuments();
      let res: Awaited<ReturnType<typeof upload>>;
      try {
        res = await upload(t, user, { sparkId, conversationId }, guia);
      } finally {
        await redis.del(counter);
        redis.disconnect();
      }
      expect(await countDocuments(sparkId)).toBe(0);
      expect(await conversations.history(conversationId)).toEqual([]);
      expect(storedDocuments()).toEqual(before);
      expect(res.status).toBe(503);
      expect(res.body.errors[0]).toMatchObject({
        code: 'UPLOAD_FAILED',
        message: 'The file could not be saved, so nothing was kept. Try again in a few minutes.',
      });
    });

    it('a file that cannot be stored → 503; the document and its message, already written, are taken back', async () => {
      // A store whose documents folder cannot be made (a file is in its way).
      const storageDir = path.join(os.tmpdir(), `sparks-broken-store-${randomUUID()}`);
      fs.mkdirSync(storageDir, { recursive: true });
      fs.writeFileSync(path.join(storageDir, 'documents'), 'not a folder');
      const broken = await startApp({ STORAGE_DIR: storageDir });
      try {
        const user = await owner(broken, 'en');
        const { sparkId, conversationId } = await sparkOf(user, 'en');
        const res = await upload(broken, user, { sparkId, conversationId }, guia);
        expect(await countDocuments(sparkId)).toBe(0);
        expect(await conversations.history(conversationId)).toEqual([]);
        expect(filesUnder(path.join(storageDir, '.tmp'))).toEqual([]);
        expect(res.status).toBe(503);
        expect(res.body.errors[0].code).toBe('UPLOAD_FAILED');
      } finally {
        await broken.close();
        fs.rmSync(storageDir, { recursive: true, force: true });
      }
    });

    it('a failed file uploaded again whose job cannot be queued stays as it was: error, no new message', async () => {
      const user = await owner(t, 'en');
      const { sparkId, conversationId } = await sparkOf(user, 'en');
      const locked = await makePdf(GUIDE_PAGES, { userPassword: 'secret' });
      const id: string = (await upload(t, user, { sparkId, conversationId }, locked, 'locked.pdf').expect(201)).body
        .data._id;
      await eventually(async () => (await documents.findById(id))?.status === 'error', 30_000);
      const history = await conversations.history(conversationId);
      const redis = createRedis(process.env.REDIS_URL!);
      const counter = `${process.env.QUEUE_PREFIX}:ingestion:id`;
      await redis.set(counter, 'not a number');
      let res: Awaited<ReturnType<typeof upload>>;
      try {
        res = await upload(t, user, { sparkId, conversationId }, locked, 'locked.pdf');
      } finally {
        await redis.del(counter);
        redis.disconnect();
      }
      expect(await documents.findById(id)).toMatchObject({ status: 'error', error: 'ENCRYPTED' });
      expect(await conversations.history(conversationId)).toEqual(history);
      expect(storedDocuments()).not.toContain((await documents.findById(id))!.storageKey.replace(/^documents\//, ''));
      expect(res.status).toBe(503);
    });
  });

  describe('temp files of uploads', () => {
    let tmpDir: string;
    let app: TestApp;
    let user: Owner;
    let sparkId: string;

    beforeAll(async () => {
      tmpDir = path.join(os.tmpdir(), `sparks-upload-tmp-${randomUUID()}`);
      app = await startApp({ UPLOAD_TMP_DIR: tmpDir, UPLOAD_IDLE_TIMEOUT_MS: '1000' });
      user = await owner(app, 'en');
      sparkId = (await sparkOf(user, 'en')).sparkId;
    });
    afterAll(async () => {
      await app.close();
      fs.rmSync(tmpDir, { recursive: true, force: true });
    });

    /** Starts a multipart upload by hand and sends the first `bytes` of the file. */
    async function startUpload(bytes: number) {
      const base = new URL(await app.url());
      const boundary = `----sparks${randomUUID()}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="sparkId"\r\n\r\n${sparkId}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
          'Content-Type: application/pdf\r\n\r\n',
      );
      const file = Buffer.alloc(4 * 1024 * 1024, 0x20);
      file.write('%PDF-1.7\n', 'latin1');
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const req = http.request({
        host: base.hostname,
        port: base.port,
        path: '/api/v1/bucket',
        method: 'POST',
        headers: {
          Authorization: `Bearer ${user.access}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': head.length + file.length + tail.length,
        },
      });
      const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
      });
      answered.catch(() => undefined);
      req.write(head);
      req.write(file.subarray(0, bytes));
      await eventually(() => Promise.resolve(filesUnder(tmpDir).length === 1));
      return { req, answered };
    }

    it('a client that goes away in the middle of the file leaves no temp file', async () => {
      const { req } = await startUpload(1024 * 1024);
      req.destroy();
      await eventually(() => Promise.resolve(filesUnder(tmpDir).length === 0));
      expect(await countDocuments(sparkId)).toBe(0);
    });

    it('a client that stops sending is answered 408 after UPLOAD_IDLE_TIMEOUT_MS and leaves no temp file', async () => {
      const { req, answered } = await startUpload(1024 * 1024);
      try {
        const res = await Promise.race([
          answered,
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 15 s')), 15_000)),
        ]);
        expect(res.status).toBe(408);
        expect(JSON.parse(res.body).errors[0]).toMatchObject({
          code: 'UPLOAD_TIMEOUT',
          message: 'The upload stopped: nothing arrived for 1 s. Try again.',
        });
        expect(filesUnder(tmpDir)).toEqual([]);
        expect(await countDocuments(sparkId)).toBe(0);
      } finally {
        req.destroy();
      }
    });

    it('temp files an api left behind (it crashed) are removed when an api starts; recent ones are not', async () => {
      const stale = path.join(tmpDir, `${randomUUID()}.upload`);
      const recent = path.join(tmpDir, `${randomUUID()}.upload`);
      const other = path.join(tmpDir, 'not-an-upload.txt');
      fs.mkdirSync(tmpDir, { recursive: true });
      for (const f of [stale, recent, other]) fs.writeFileSync(f, '%PDF-1.7\n');
      const hourAgo = new Date(Date.now() - 3600_000);
      fs.utimesSync(stale, hourAgo, hourAgo);
      fs.utimesSync(other, hourAgo, hourAgo);
      const restarted = await startApp({ UPLOAD_TMP_DIR: tmpDir });
      try {
        expect(fs.existsSync(stale)).toBe(false);
        expect(fs.existsSync(recent)).toBe(true);
        expect(fs.existsSync(other)).toBe(true);
      } finally {
        await restarted.close();
        fs.rmSync(recent, { force: true });
        fs.rmSync(other, { force: true });
      }
    });
  });

  describe('the worker ends every document completed or error', () => {
    const prefix = `${process.env.QUEUE_PREFIX}_end`;
    const children: ChildProcess[] = [];
    let app: TestApp;
    let producer: JobProducer;
    let redis: ReturnType<typeof createRedis>;

    const startWorker = (env: Record<string, string> = {}) => {
      const child = spawn(process.execPath, [path.join(ROOT, 'worker', 'dist', 'main.js')], {
        cwd: ROOT,
        env: { ...process.env, QUEUE_PREFIX: prefix, LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      return child;
    };
    const stopWorkers = async () => {
      const running = children.splice(0).filter((c) => c.exitCode === null && c.signalCode === null);
      await Promise.all(
        running.map((c) => {
          const exited = new Promise((r) => c.once('exit', r));
          c.kill('SIGKILL');
          return exited;
        }),
      );
    };

    beforeAll(async () => {
      app = await startApp({ QUEUE_PREFIX: prefix });
      redis = createRedis(process.env.REDIS_URL!);
      producer = new JobProducer(redis, prefix);
    });
    afterEach(stopWorkers);
    afterAll(async () => {
      await producer.close();
      redis.disconnect();
      await app.close();
    });

    it('a job for a document that does not exist ends after one attempt, without retries', async () => {
      startWorker();
      const missing = randomUUID();
      const ids = [
        await producer.enqueue('document.ingest', { documentId: missing }, { attempts: 3 }),
        await producer.enqueue('document.ingest', { documentId: 'not-a-document' }, { attempts: 3 }),
      ];
      const queue = producer.queue('ingestion');
      for (const id of ids) {
        const state = await eventually(async () => {
          const s = await queue.getJobState(id);
          return s === 'completed' || s === 'failed' ? s : undefined;
        }, 30_000);
        // Given the time a retry would have taken (its back-off), it has still been tried once.
        await new Promise((r) => setTimeout(r, 3000));
        expect(await queue.getJobState(id)).toBe(state);
        expect((await queue.getJob(id))!.attemptsMade).toBeLessThanOrEqual(1);
      }
    });

    it('a read stalled in the database is ended by the job time limit: error, a translated message, the slot freed', async () => {
      startWorker({
        INGEST_CONCURRENCY: '1',
        INGEST_TIMEOUT_MS: '2000',
        INGEST_JOB_TIMEOUT_MS: '4000',
      });
      const user = await owner(app, 'es');
      const stuck = await sparkOf(user);
      // Every insert of this Spark's chunks waits for an advisory lock the test holds: the job stops
      // making progress in the middle of a statement, holding its document row, while BullMQ keeps
      // renewing its lock.
      const LOCK = 71_071;
      const holder = await handle.pool.connect();
      await holder.query('SELECT pg_advisory_lock($1)', [LOCK]);
      await handle.pool.query(`
        CREATE FUNCTION test_stall_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF EXISTS (SELECT 1 FROM inserted WHERE spark_id = '${stuck.sparkId}') THEN
            PERFORM pg_advisory_xact_lock_shared(${LOCK});
          END IF;
          RETURN NULL;
        END $$;
        CREATE TRIGGER stall_chunks AFTER INSERT ON document_chunks
          REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION test_stall_chunks();`);
      const waiting = `SELECT 1 FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event = 'advisory' AND query LIKE '%INSERT INTO document_chunks%'`;
      try {
        const id: string = (await upload(app, user, stuck, guia, 'guía.pdf').expect(201)).body.data._id;
        await eventually(async () => (await handle.pool.query(waiting)).rowCount === 1, 30_000);
        const doc = await eventually(async () => {
          const row = await documents.findById(id);
          return row?.status === 'error' ? row : undefined;
        }, 30_000);
        expect(doc.error).toBe('STALLED');
        // Its statement was cancelled and its transaction rolled back: nothing waits, nothing was kept.
        expect((await handle.pool.query(waiting)).rowCount).toBe(0);
        expect(await documents.countChunks(id)).toBe(0);
        const failed = (await conversations.history(stuck.conversationId)).find((m) => m.type === 'ai');
        expect(failed?.data).toMatchObject({ type: 'document', documentId: id, status: 'error', error: 'STALLED' });
        expect(failed?.data.content).toMatch(/^No he podido leer \*\*guía\.pdf\*\*\. La lectura dejó de avanzar/);
        const job = (await producer.queue('ingestion').getJob(`ingest-${id}`))!;
        expect(await job.getState()).toBe('failed');
        expect(job.attemptsMade).toBe(1);

        // The only reading slot of this worker is free again.
        const other = await sparkOf(user);
        const next: string = (await upload(app, user, other, guia).expect(201)).body.data._id;
        await eventually(async () => (await documents.findById(next))?.status === 'completed', 30_000);
      } finally {
        // Unlocked first: a writer still waiting would keep the trigger from being dropped.
        await holder.query('SELECT pg_advisory_unlock_all()');
        holder.release();
        await handle.pool.query(
          'DROP TRIGGER IF EXISTS stall_chunks ON document_chunks; DROP FUNCTION IF EXISTS test_stall_chunks()',
        );
      }
    }, 90_000);

    it('a stored file that never arrives (the S3 store stops answering) is ended by the job time limit', async () => {
      const objects = new Map<string, Buffer>();
      let answerReads = false;
      const hanging: http.ServerResponse[] = [];
      const server = http.createServer((req, res) => {
        const key = decodeURIComponent(req.url!.split('?')[0]);
        const body: Buffer[] = [];
        req.on('data', (c: Buffer) => body.push(c));
        req.on('end', () => {
          if (req.method === 'PUT') {
            objects.set(key, Buffer.concat(body));
            res.writeHead(200, { ETag: '"x"' }).end();
          } else if (req.method === 'GET' && !answerReads) {
            hanging.push(res); // accepted, never answered
          } else if (req.method === 'GET' || req.method === 'HEAD') {
            const found = objects.get(key);
            if (!found) res.writeHead(404).end();
            else res.writeHead(200, { 'Content-Length': found.length }).end(req.method === 'GET' ? found : undefined);
          } else if (req.method === 'DELETE') {
            objects.delete(key);
            res.writeHead(204).end();
          } else {
            res.writeHead(405).end();
          }
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const s3 = {
        S3_BUCKET: 'sparks-docs',
        S3_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'test',
        S3_SECRET_ACCESS_KEY: 'test',
        UPLOAD_TMP_DIR: path.join(os.tmpdir(), `sparks-s3-tmp-${randomUUID()}`),
      };
      const s3App = await startApp({ QUEUE_PREFIX: prefix, ...s3 });
      try {
        startWorker({ ...s3, INGEST_CONCURRENCY: '1', INGEST_TIMEOUT_MS: '2000', INGEST_JOB_TIMEOUT_MS: '4000' });
        const user = await owner(s3App, 'en');
        const first = await sparkOf(user, 'en');
        const id: string = (await upload(s3App, user, first, guia, 'guide.pdf').expect(201)).body.data._id;
        await eventually(() => Promise.resolve(hanging.length === 1), 30_000);
        const doc = await eventually(async () => {
          const row = await documents.findById(id);
          return row?.status === 'error' ? row : undefined;
        }, 30_000);
        expect(doc.error).toBe('STALLED');
        const failed = (await conversations.history(first.conversationId)).find((m) => m.type === 'ai');
        expect(failed?.data.content).toMatch(
          /^I couldn't read \*\*guide\.pdf\*\*\. Reading it stopped making progress/,
        );

        answerReads = true;
        const second = await sparkOf(user, 'en');
        const next: string = (await upload(s3App, user, second, guia).expect(201)).body.data._id;
        await eventually(async () => (await documents.findById(next))?.status === 'completed', 30_000);
      } finally {
        for (const res of hanging) res.destroy();
        await s3App.close();
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
        fs.rmSync(s3.UPLOAD_TMP_DIR, { recursive: true, force: true });
      }
    }, 90_000);

    it('a document an api left pending with no job is queued by the sweep; one a dead job left reading ends as error', async () => {
      // Made through the main app (whose worker sends the sign-up code): this worker starts after.
      const user = await owner(t, 'en');
      const { sparkId, conversationId } = await sparkOf(user, 'en');
      // As if the api had died between writing the document and queueing its job.
      const storageKey = `documents/${randomUUID()}.pdf`;
      fs.mkdirSync(path.join(STORAGE_DIR, 'documents'), { recursive: true });
      fs.writeFileSync(path.join(STORAGE_DIR, storageKey), guia);
      const created = await documents.createWithinLimit(
        user.id,
        sparkId,
        { name: 'left.pdf', storageKey, size: guia.length, sha256: randomUUID(), conversationId },
        100,
      );
      const pending = (created as { document: { id: string } }).document.id;
      // As if the worker reading it had died for good and its job had been removed since.
      const reading = (
        (await documents.createWithinLimit(
          user.id,
          sparkId,
          {
            name: 'reading.pdf',
            storageKey: `documents/${randomUUID()}.pdf`,
            size: 1,
            sha256: randomUUID(),
            conversationId,
          },
          100,
        )) as { document: { id: string } }
      ).document.id;
      await documents.markInProgress(reading);
      await handle.pool.query(`UPDATE documents SET updated_at = now() - interval '1 hour' WHERE id = ANY($1)`, [
        [pending, reading],
      ]);

      startWorker();
      await eventually(async () => (await documents.findById(pending))?.status === 'completed', 30_000);
      const ended = await eventually(async () => {
        const row = await documents.findById(reading);
        return row?.status === 'error' ? row : undefined;
      }, 30_000);
      expect(ended.error).toBe('INGESTION_FAILED');
      const messages = (await conversations.history(conversationId)).filter((m) => m.type === 'ai');
      expect(messages.map((m) => [m.data.documentId, m.data.status]).sort()).toEqual(
        [
          [pending, 'completed'],
          [reading, 'error'],
        ].sort(),
      );
    }, 60_000);
  });
});
