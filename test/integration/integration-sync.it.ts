import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { importJobId } from '../../worker/src/integrations/integration-sync.job';
import { addDocument } from './fixtures/knowledge';
import { eventually, type TestApp } from './harness';
import {
  connectedSpark,
  sparkOwner,
  startMicrosoftStack,
  startWorker,
  type MicrosoftStack,
  type SparkOwner,
} from './microsoft';
import type { GraphServer } from './support/graph-server';

/**
 * The sync of a document-sharing connection (issue 20), end to end: the real api connects against the local
 * identity platform and Graph (`support/graph-server.ts`), a real worker process (on its own queue prefix, with
 * the same Microsoft settings) runs `integration.sync`, and the test looks at PostgreSQL, the queue and Graph's
 * request log. The files the sync follows are written as the import records them: an `integration_items` row
 * with the version's eTag, pointing at a read document.
 */

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);

const APP_URL = 'http://localhost:3997';
const PREFIX = `${process.env.QUEUE_PREFIX}_sync`;
const INTERVAL_SECONDS = 3600;

interface Owner extends SparkOwner {
  connectionId: string;
  conversationId: string;
}

let stack: MicrosoftStack;
let graph: GraphServer;
let env: Record<string, string>;
let t: TestApp;
let redis: Redis;
let queue: Queue;

beforeAll(async () => {
  stack = await startMicrosoftStack({
    appUrl: APP_URL,
    env: { QUEUE_PREFIX: PREFIX, INTEGRATION_SYNC_INTERVAL_SECONDS: String(INTERVAL_SECONDS) },
    worker: { logLevel: 'info', output: 'capture' },
  });
  ({ graph, env, t } = stack);
  redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  queue = new Queue('integrations', { connection: redis, prefix: PREFIX });
  await eventually(() => Promise.resolve(workerOutput().includes('consuming')), 30_000);
});

afterAll(async () => {
  await stack?.worker?.stop();
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
  await stack?.close();
  await sql.end();
});

/** What the worker printed so far. */
const workerOutput = () => stack.worker!.output();

/** A zaphire owner (bought the way a user buys it) whose Spark is connected to Microsoft 365. */
async function connectedOwner(language: 'en' | 'es' = 'en'): Promise<Owner> {
  const o = await sparkOwner(t, sql, { tag: 'sync', language, zaphire: true });
  const connectionId = await connectedSpark(t, sql, o);
  // The scheduler's first run comes at once; with nothing followed yet it does nothing. Waited for, so that
  // it does not run alongside the test's own.
  await eventually(async () => (await queue.getCompleted()).some((j) => j.data.connectionId === connectionId));
  const conversationId = (
    await sql.query(
      `INSERT INTO conversations (id, user_id, kind, spark_id) VALUES (gen_random_uuid(), $1, 'builder', $2) RETURNING id`,
      [o.userId, o.sparkId],
    )
  ).rows[0].id as string;
  return { ...o, connectionId, conversationId };
}

type Drive = ReturnType<GraphServer['addDrive']>;
type Item = ReturnType<GraphServer['addFile']>;

/** What the import leaves behind for a file: a read document (from the builder conversation) and its row. */
async function follow(o: Owner, drive: Drive, item: Item): Promise<{ documentId: string; rowId: string }> {
  const documentId = await addDocument(sql, {
    sparkId: o.sparkId,
    userId: o.userId,
    name: item.name,
    pages: [`The content of ${item.name}: opening hours and prices.`],
    language: 'en',
  });
  await sql.query('UPDATE documents SET conversation_id = $1 WHERE id = $2', [o.conversationId, documentId]);
  const row = await sql.query(
    `INSERT INTO integration_items (id, connection_id, drive_id, item_id, e_tag, path, document_id)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6) RETURNING id`,
    [o.connectionId, drive.id, item.id, item.eTag, `Sites/Bakery/${item.name}`, documentId],
  );
  return { documentId, rowId: row.rows[0].id as string };
}

let runs = 0;

/** Runs `integration.sync` for the connection through the worker, as its scheduler does, and waits for the end. */
async function sync(o: Owner): Promise<{ state: string; result: unknown; reason?: string; ms: number }> {
  runs += 1;
  const started = Date.now();
  const job = await queue.add(
    'integration.sync',
    { connectionId: o.connectionId },
    { jobId: `test-sync-${o.connectionId}-${runs}`, attempts: 1 },
  );
  const state = await eventually(async () => {
    const s = await job.getState();
    return s === 'completed' || s === 'failed' ? s : undefined;
  }, 60_000);
  const done = (await queue.getJob(job.id!)) as Job;
  return { state, result: done.returnvalue, reason: done.failedReason, ms: Date.now() - started };
}

const importsOf = async (o: Owner) =>
  (await queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized'])).filter(
    (j) => j.name === 'integration.import' && j.data.connectionId === o.connectionId,
  );

const deltaLinkOf = async (o: Owner, drive: Drive) =>
  (
    await sql.query('SELECT delta_link FROM integration_drives WHERE connection_id = $1 AND drive_id = $2', [
      o.connectionId,
      drive.id,
    ])
  ).rows[0]?.delta_link as string | undefined;

/**
 * What the sync told the owner. The worker also runs the imports the sync queues, and an import speaks in the same
 * conversation (it is tested in document-sharing.it.ts); its messages carry no `sync` mark and are left out here.
 */
const messagesOf = async (o: Owner) =>
  (await sql.query(`SELECT data FROM messages WHERE conversation_id = $1 ORDER BY created_at`, [o.conversationId])).rows
    .map((r) => r.data as { content: string; sync?: string })
    .filter((m) => m.sync !== undefined);

const exists = async (table: string, id: string) =>
  ((await sql.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).rowCount ?? 0) > 0;

describe('the sync of a document-sharing connection (integration.sync)', () => {
  it('has a scheduler per connection from the connect, every INTEGRATION_SYNC_INTERVAL_SECONDS; disconnecting removes it', async () => {
    const o = await connectedOwner();
    const scheduler = await queue.getJobScheduler(`integration-sync-${o.connectionId}`);
    expect(scheduler).toMatchObject({ name: 'integration.sync', every: INTERVAL_SECONDS * 1000 });
    expect(scheduler!.template?.data).toEqual({ connectionId: o.connectionId });
    // The next run waits in the queue.
    const next = (await queue.getDelayed()).filter((j) => j.data.connectionId === o.connectionId);
    expect(next).toHaveLength(1);
    await t
      .http()
      .delete(`/api/v1/sparks/${o.sparkId}/integrations/microsoft`)
      .set(...o.user.auth())
      .expect(200);
    expect(await queue.getJobScheduler(`integration-sync-${o.connectionId}`)).toBeUndefined();
    expect((await queue.getDelayed()).filter((j) => j.data.connectionId === o.connectionId)).toHaveLength(0);
  });

  it('a worker at start gives each connection without a scheduler its own, and leaves the others as they are', async () => {
    const lost = await connectedOwner();
    const kept = await connectedOwner();
    const id = (o: Owner) => `integration-sync-${o.connectionId}`;
    // As if the connect had happened while Redis was away.
    await queue.removeJobScheduler(id(lost));
    const before = await queue.getJobScheduler(id(kept));
    const second = startWorker(env, { logLevel: 'warn', output: 'none' });
    try {
      const restored = await eventually(() => queue.getJobScheduler(id(lost)), 30_000);
      expect(restored).toMatchObject({
        every: INTERVAL_SECONDS * 1000,
        template: { data: { connectionId: lost.connectionId } },
      });
      expect((await queue.getJobScheduler(id(kept)))?.next).toBe(before?.next);
    } finally {
      await second.stop();
    }
  });

  it('a run for a connection that is gone (the Spark was deleted) removes its scheduler', async () => {
    const o = await connectedOwner();
    await sql.query('DELETE FROM sparks WHERE id = $1', [o.sparkId]);
    const run = await sync(o);
    expect(run).toMatchObject({ state: 'completed', result: { status: 'gone' } });
    expect(await queue.getJobScheduler(`integration-sync-${o.connectionId}`)).toBeUndefined();
  });

  it('follows the delta pages: a changed file is queued for import once per eTag, a deleted one leaves the knowledge, new and unfollowed files are left alone', async () => {
    const o = await connectedOwner();
    const drive = graph.addDrive('Documents', 'Bakery');
    const menu = graph.addFile(drive, { name: 'Menu.pdf', content: Buffer.from('%PDF-1.4 menu') });
    const hours = graph.addFile(drive, { name: 'Hours.pdf', content: Buffer.from('%PDF-1.4 hours') });
    const prices = graph.addFile(drive, { name: 'Prices.pdf', content: Buffer.from('%PDF-1.4 prices') });
    const m = await follow(o, drive, menu);
    const h = await follow(o, drive, hours);

    // First run: the whole drive (two pages of two), nothing changed against the recorded eTags.
    const before = graph.graphRequests.length;
    const first = await sync(o);
    expect(first).toMatchObject({ state: 'completed', result: { drives: 1, imports: 0, removed: 0 } });
    const pages = graph.graphRequests.slice(before).filter((r) => r.includes('/root/delta'));
    expect(pages).toHaveLength(2);
    expect(pages[1]).toContain('skiptoken');
    const link1 = await deltaLinkOf(o, drive);
    expect(link1).toMatch(new RegExp(`^${graph.graphUrl}/drives/.+/root/delta\\?token=`));
    expect(await importsOf(o)).toHaveLength(0);

    // Four changes, two pages: the followed Menu.pdf changed, Hours.pdf deleted, a new file added and an
    // unfollowed one changed.
    graph.changeFile(drive, menu.id, Buffer.from('%PDF-1.4 menu v2'));
    graph.deleteItem(drive, hours.id);
    graph.addFile(drive, { name: 'New.pdf', content: Buffer.from('%PDF-1.4 new') });
    graph.changeFile(drive, prices.id, Buffer.from('%PDF-1.4 prices v2'));
    const mark = graph.graphRequests.length;
    const second = await sync(o);
    expect(second).toMatchObject({ state: 'completed', result: { drives: 1, imports: 1, removed: 1, skipped: 0 } });
    const pages2 = graph.graphRequests.slice(mark).filter((r) => r.includes('/root/delta'));
    expect(pages2).toHaveLength(2);
    expect(pages2[0]).toContain(new URL(link1!).search.slice(1));

    // Changed: one import of the new version, named by its eTag.
    const imports = await importsOf(o);
    expect(imports).toHaveLength(1);
    expect(imports[0].data).toEqual({ connectionId: o.connectionId, driveId: drive.id, itemId: menu.id });
    expect(imports[0].id).toBe(importJobId(o.connectionId, drive.id, menu.id, drive.items.get(menu.id)!.eTag));
    expect(await exists('documents', m.documentId)).toBe(true);

    // Deleted: the document and what was read of it are gone, the row too, and the owner is told.
    expect(await exists('documents', h.documentId)).toBe(false);
    expect((await sql.query('SELECT 1 FROM document_chunks WHERE document_id = $1', [h.documentId])).rowCount).toBe(0);
    expect(await exists('integration_items', h.rowId)).toBe(false);
    const told = await messagesOf(o);
    expect(told.map((x) => x.content)).toEqual([
      '**Hours.pdf** was deleted from SharePoint, so I no longer use it in my answers.',
    ]);
    // Nothing of the new file nor of the file the Spark does not follow.
    const rows = await sql.query('SELECT item_id FROM integration_items WHERE connection_id = $1', [o.connectionId]);
    expect(rows.rows.map((r) => r.item_id)).toEqual([menu.id]);
    const link2 = await deltaLinkOf(o, drive);
    expect(link2).not.toBe(link1);

    // The worker runs the queued import; once it has finished, the same round delivered again (the job ran twice
    // from the same link) queues no second import of that version and tells nothing new.
    await eventually(async () => {
      const state = await imports[0].getState();
      return state === 'completed' || state === 'failed' ? state : undefined;
    }, 60_000);
    await sql.query('UPDATE integration_drives SET delta_link = $1 WHERE connection_id = $2', [link1, o.connectionId]);
    const again = await sync(o);
    expect(again).toMatchObject({ state: 'completed', result: { removed: 0 } });
    const importsAfter = await importsOf(o);
    expect(importsAfter.map((j) => j.id)).toEqual([imports[0].id]);
    expect(await messagesOf(o)).toHaveLength(1);
    // And nothing changed since: nothing to do.
    expect(await sync(o)).toMatchObject({ state: 'completed', result: { imports: 0, removed: 0 } });
  });

  it('a new version of a kind the import does not take, or too large, is skipped with its reason, told once in the owner’s language', async () => {
    const o = await connectedOwner('es');
    const drive = graph.addDrive('Docs', 'Cafe');
    const menu = graph.addFile(drive, { name: 'Carta.pdf', content: Buffer.from('%PDF-1.4 carta') });
    const big = graph.addFile(drive, { name: 'Catalogo.pdf', content: Buffer.from('%PDF-1.4 catalogo') });
    const m = await follow(o, drive, menu);
    const b = await follow(o, drive, big);
    expect(await sync(o)).toMatchObject({ state: 'completed' });
    graph.renameFile(drive, menu.id, 'Carta.xlsx');
    graph.resizeFile(drive, big.id, 11 * 1024 * 1024);
    expect(await sync(o)).toMatchObject({ state: 'completed', result: { imports: 0, skipped: 2 } });
    const rows = await sql.query('SELECT id, e_tag, skipped, document_id FROM integration_items WHERE id = ANY($1)', [
      [m.rowId, b.rowId],
    ]);
    const byId = new Map(rows.rows.map((r) => [r.id, r]));
    expect(byId.get(m.rowId)).toMatchObject({
      skipped: 'UNSUPPORTED',
      e_tag: drive.items.get(menu.id)!.eTag,
      document_id: m.documentId,
    });
    expect(byId.get(b.rowId)).toMatchObject({ skipped: 'TOO_LARGE', document_id: b.documentId });
    // The documents read before stay.
    expect(await exists('documents', m.documentId)).toBe(true);
    expect(await exists('documents', b.documentId)).toBe(true);
    const told = (await messagesOf(o)).map((x) => x.content);
    expect(told.sort()).toEqual([
      '**Carta.xlsx** ha cambiado en SharePoint, pero ya no es un PDF, un documento de Word (.docx) ni un archivo de texto UTF-8 (.txt, .md): sigo respondiendo con la versión que había leído.',
      '**Catalogo.pdf** ha cambiado en SharePoint, pero su nueva versión ocupa más de 10 MB, lo máximo que puedo leer: sigo respondiendo con la versión que había leído.',
    ]);
    expect(await importsOf(o)).toHaveLength(0);
    // Told once: the same versions seen again (the round delivered twice) say nothing more.
    await sql.query('UPDATE integration_drives SET delta_link = NULL WHERE connection_id = $1', [o.connectionId]);
    expect(await sync(o)).toMatchObject({ state: 'completed', result: { imports: 0 } });
    expect(await messagesOf(o)).toHaveLength(2);
    // Back to a PDF: read again.
    graph.renameFile(drive, menu.id, 'Carta.pdf');
    expect(await sync(o)).toMatchObject({ state: 'completed', result: { imports: 1 } });
    expect((await importsOf(o)).map((j) => j.data.itemId)).toEqual([menu.id]);
  });

  it('leaves a file whose first import is still to come to that import, and a file the import skipped until it changes again', async () => {
    const o = await connectedOwner();
    const drive = graph.addDrive('Pending', 'Bakery2');
    const picked = graph.addFile(drive, { name: 'Picked.pdf', content: Buffer.from('%PDF-1.4 p') });
    const full = graph.addFile(drive, { name: 'Full.pdf', content: Buffer.from('%PDF-1.4 f') });
    const p = await follow(o, drive, picked);
    const f = await follow(o, drive, full);
    // As the import leaves them: picked, not read yet; and skipped because the plan was full (no eTag kept).
    await sql.query('UPDATE integration_items SET e_tag = NULL, document_id = NULL WHERE id = $1', [p.rowId]);
    await sql.query(`UPDATE integration_items SET e_tag = NULL, skipped = 'DOCUMENT_LIMIT' WHERE id = $1`, [f.rowId]);
    expect(await sync(o)).toMatchObject({ state: 'completed', result: { imports: 0, skipped: 0 } });
    const rows = await sql.query('SELECT id, e_tag, skipped FROM integration_items WHERE id = ANY($1)', [
      [p.rowId, f.rowId],
    ]);
    const byId = new Map(rows.rows.map((r) => [r.id, r]));
    expect(byId.get(p.rowId)).toMatchObject({ e_tag: null, skipped: null });
    expect(byId.get(f.rowId)).toMatchObject({ e_tag: full.eTag, skipped: 'DOCUMENT_LIMIT' });
    expect(await messagesOf(o)).toHaveLength(0);
    // The skipped file changes: now it is read again.
    graph.changeFile(drive, full.id, Buffer.from('%PDF-1.4 f2'));
    expect(await sync(o)).toMatchObject({ state: 'completed', result: { imports: 1 } });
    expect((await importsOf(o)).map((j) => j.data.itemId)).toEqual([full.id]);
  });

  it('410 on the saved delta link: a full resync from a fresh delta, where a file no longer listed is gone', async () => {
    const o = await connectedOwner();
    const drive = graph.addDrive('Shared', 'Shop');
    const a = graph.addFile(drive, { name: 'A.pdf', content: Buffer.from('%PDF-1.4 a') });
    const b = graph.addFile(drive, { name: 'B.docx', content: Buffer.from('PK b') });
    const c = graph.addFile(drive, { name: 'C.pdf', content: Buffer.from('%PDF-1.4 c') });
    await follow(o, drive, a);
    const fb = await follow(o, drive, b);
    const fc = await follow(o, drive, c);
    expect(await sync(o)).toMatchObject({ state: 'completed' });
    const expiredLink = await deltaLinkOf(o, drive);
    graph.expireDeltaLinks();
    graph.changeFile(drive, b.id, Buffer.from('PK b2'));
    graph.deleteItem(drive, c.id);
    const mark = graph.graphRequests.length;
    const run = await sync(o);
    expect(run).toMatchObject({ state: 'completed', result: { imports: 1, removed: 1 } });
    const delta = graph.graphRequests.slice(mark).filter((r) => r.includes('/root/delta'));
    // The expired link (410), then the drive from scratch.
    expect(delta[0]).toContain(new URL(expiredLink!).search.slice(1));
    expect(delta[1]).toBe(`/v1.0/drives/${encodeURIComponent(drive.id)}/root/delta`);
    expect((await importsOf(o)).map((j) => j.data.itemId)).toEqual([b.id]);
    expect(await exists('integration_items', fc.rowId)).toBe(false);
    expect(await exists('documents', fc.documentId)).toBe(false);
    expect(await exists('documents', fb.documentId)).toBe(true);
    const fresh = await deltaLinkOf(o, drive);
    expect(fresh).not.toBe(expiredLink);
    // The fresh link works.
    expect(await sync(o)).toMatchObject({ state: 'completed', result: { imports: 0, removed: 0 } });
  });

  it('waits what Retry-After says on 429 and goes on; asked to wait too long, the run stops and keeps its link', async () => {
    const o = await connectedOwner();
    const drive = graph.addDrive('Throttled', 'Mill');
    const a = graph.addFile(drive, { name: 'A.pdf', content: Buffer.from('%PDF-1.4 a') });
    await follow(o, drive, a);
    graph.throttle(2, '1');
    const run = await sync(o);
    expect(run).toMatchObject({ state: 'completed', result: { drives: 1 } });
    expect(run.ms).toBeGreaterThanOrEqual(2000);
    const link = await deltaLinkOf(o, drive);
    graph.changeFile(drive, a.id, Buffer.from('%PDF-1.4 a2'));
    graph.throttle(1, '3600');
    const stopped = await sync(o);
    expect(stopped.state).toBe('failed');
    expect(stopped.reason).toMatch(/throttled.*Retry-After 3600 s/);
    expect(workerOutput()).toMatch(new RegExp(`sync of connection ${o.connectionId}, drive .*throttled`));
    expect(await deltaLinkOf(o, drive)).toBe(link);
    expect(await importsOf(o)).toHaveLength(0);
    // The next run picks the change up.
    expect(await sync(o)).toMatchObject({ state: 'completed', result: { imports: 1 } });
  });

  describe('SSRF: a link Graph hands back that is not on the configured Graph host', () => {
    let trap: Server;
    let trapOrigin = '';
    const hits: string[] = [];
    beforeAll(async () => {
      trap = createServer((req, res) => {
        hits.push(req.url ?? '');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ value: [], '@odata.deltaLink': 'http://127.0.0.1:1/x' }));
      });
      await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
      trapOrigin = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      graph.foreignLinks = {};
      await new Promise((r) => trap.close(r));
    });

    it('a nextLink elsewhere is refused before any request, logged, and nothing is imported or saved', async () => {
      const o = await connectedOwner();
      const drive = graph.addDrive('Trap', 'Elsewhere');
      const files = ['A.pdf', 'B.pdf', 'C.pdf'].map((name) =>
        graph.addFile(drive, { name, content: Buffer.from(`%PDF-1.4 ${name}`) }),
      );
      for (const f of files) await follow(o, drive, f);
      expect(await sync(o)).toMatchObject({ state: 'completed' });
      const link = await deltaLinkOf(o, drive);
      for (const f of files) graph.changeFile(drive, f.id, Buffer.from('%PDF-1.4 changed'));
      graph.foreignLinks = { next: trapOrigin };
      const run = await sync(o);
      expect(run.state).toBe('failed');
      expect(run.reason).toContain(`refused: refused a Graph URL outside ${graph.base}/v1.0: ${trapOrigin}`);
      expect(hits).toEqual([]);
      expect(workerOutput()).toContain(`sync of connection ${o.connectionId}, drive ${drive.id}: refused`);
      expect(await importsOf(o)).toHaveLength(0);
      expect(await deltaLinkOf(o, drive)).toBe(link);
    });

    it('a deltaLink elsewhere is refused: neither stored nor followed, and nothing is imported', async () => {
      const o = await connectedOwner();
      const drive = graph.addDrive('Trap2', 'Elsewhere2');
      const a = graph.addFile(drive, { name: 'A.pdf', content: Buffer.from('%PDF-1.4 a') });
      await follow(o, drive, a);
      graph.changeFile(drive, a.id, Buffer.from('%PDF-1.4 a2'));
      graph.foreignLinks = { delta: trapOrigin };
      const run = await sync(o);
      expect(run.state).toBe('failed');
      expect(run.reason).toContain(`refused a Graph URL outside ${graph.base}/v1.0: ${trapOrigin}`);
      expect(await deltaLinkOf(o, drive)).toBeUndefined();
      expect(await importsOf(o)).toHaveLength(0);
      // A stored link elsewhere (written by anyone) is not followed either.
      await sql.query(
        `INSERT INTO integration_drives (id, connection_id, drive_id, delta_link) VALUES (gen_random_uuid(), $1, $2, $3)
         ON CONFLICT (connection_id, drive_id) DO UPDATE SET delta_link = EXCLUDED.delta_link`,
        [o.connectionId, drive.id, `${trapOrigin}/v1.0/drives/${drive.id}/root/delta?token=x`],
      );
      graph.foreignLinks = {};
      expect((await sync(o)).state).toBe('failed');
      expect(hits).toEqual([]);
      expect(await importsOf(o)).toHaveLength(0);
    });
  });

  it('refreshes the access token before it expires, once, during a sync', async () => {
    const o = await connectedOwner();
    const drive = graph.addDrive('Tokens', 'Refresh');
    const a = graph.addFile(drive, { name: 'A.pdf', content: Buffer.from('%PDF-1.4 a') });
    await follow(o, drive, a);
    graph.changeFile(drive, a.id, Buffer.from('%PDF-1.4 a2'));
    // Four minutes left: less than the five-minute lead.
    await sql.query(`UPDATE integration_connections SET expires_at = now() + interval '4 minutes' WHERE id = $1`, [
      o.connectionId,
    ]);
    const before = (await sql.query('SELECT * FROM integration_connections WHERE id = $1', [o.connectionId])).rows[0];
    const refreshes = () => graph.tokenRequests.filter((r) => r.grant_type === 'refresh_token').length;
    const n = refreshes();
    graph.revokeAccessTokens(); // the stored access token would be refused now
    graph.deltaPageSize = 1; // several Graph calls in the run, one refresh
    graph.addFile(drive, { name: 'Other.pdf', content: Buffer.from('%PDF-1.4 o') });
    try {
      expect(await sync(o)).toMatchObject({ state: 'completed', result: { imports: 1 } });
    } finally {
      graph.deltaPageSize = 2;
    }
    expect(refreshes()).toBe(n + 1);
    const after = (await sql.query('SELECT * FROM integration_connections WHERE id = $1', [o.connectionId])).rows[0];
    expect(after.access_token_sealed).not.toBe(before.access_token_sealed);
    expect(new Date(after.expires_at).getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
  });
});
