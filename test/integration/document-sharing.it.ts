import { ConversationsRepository, createDb, type DbHandle } from '@sparks/db';
import { createRedis, JobProducer } from '@sparks/queues';
import { addDocument } from './fixtures/knowledge';
import { makeDocx } from './fixtures/docx';
import { makePdf } from './fixtures/pdfs';
import { eventually, type TestApp } from './harness';
import { connectedSpark, sparkOwner, startMicrosoftStack, type MicrosoftStack, type SparkOwner } from './microsoft';
import type { GraphServer } from './support/graph-server';

/**
 * Issue 20, after connecting: the `integration.import` job (and, below, the builder chat's file picker) against the
 * local Microsoft identity platform and Graph, with a worker of its own that is configured for them.
 */

const prefix = `${process.env.QUEUE_PREFIX}_sharing`;
const APP_URL = 'http://localhost:3997';

let stack: MicrosoftStack;
let graph: GraphServer;
let t: TestApp;
let handle: DbHandle;
let producer: JobProducer;
let redis: ReturnType<typeof createRedis>;

beforeAll(async () => {
  stack = await startMicrosoftStack({
    appUrl: APP_URL,
    env: { QUEUE_PREFIX: prefix },
    worker: { logLevel: process.env.TEST_LOG_LEVEL ?? 'warn', output: 'stderr' },
  });
  ({ graph, t } = stack);
  handle = createDb(process.env.DATABASE_URL!, 2);
  redis = createRedis(process.env.REDIS_URL!);
  producer = new JobProducer(redis, prefix);
  // Its worker is up once it consumes (it sends the sign-up codes too).
  await eventually(async () => (await producer.queue('email').getWorkers()).length > 0, 60_000);
});

afterAll(async () => {
  await producer.close();
  redis.disconnect();
  await stack.close();
  await handle.close();
});

const sql = () => handle.pool;

interface Owner extends SparkOwner {
  conversationId: string;
  connectionId: string;
}

/** A zaphire user (bought through the local payment provider), a Spark, its builder chat, connected to Microsoft. */
async function connectedOwner(language: 'en' | 'es' = 'en'): Promise<Owner> {
  const o = await sparkOwner(t, sql(), { tag: 'sharing', language, zaphire: true });
  const conversationId = (
    await new ConversationsRepository(handle.db).create(o.userId, { kind: 'builder', sparkId: o.sparkId })
  ).id;
  const connectionId = await connectedSpark(t, sql(), o);
  return { ...o, conversationId, connectionId };
}

const documentsOf = async (sparkId: string) =>
  (
    await sql().query<{ id: string; name: string; status: string; storage_key: string; error: string | null }>(
      `SELECT id, name, status, storage_key, error FROM documents WHERE spark_id = $1 AND origin = 'file' ORDER BY created_at`,
      [sparkId],
    )
  ).rows;

const itemOf = async (connectionId: string, itemId: string) =>
  (
    await sql().query<{ e_tag: string | null; path: string; document_id: string | null; skipped: string | null }>(
      'SELECT e_tag, path, document_id, skipped FROM integration_items WHERE connection_id = $1 AND item_id = $2',
      [connectionId, itemId],
    )
  ).rows[0];

const chunkText = async (documentId: string) =>
  (
    await sql().query<{ content: string }>('SELECT content FROM document_chunks WHERE document_id = $1 ORDER BY ord', [
      documentId,
    ])
  ).rows
    .map((r) => r.content)
    .join('\n');

const aiMessages = async (conversationId: string) =>
  (
    await sql().query<{ data: { content: string; type?: string; reason?: string } }>(
      `SELECT data FROM messages WHERE conversation_id = $1 AND type = 'ai' ORDER BY created_at, id`,
      [conversationId],
    )
  ).rows.map((r) => r.data);

/** Enqueues the job as the picker and the sync job do, and waits until the item has been looked at. */
async function runImport(o: Owner, driveId: string, itemId: string) {
  const before = (await itemOf(o.connectionId, itemId)) ?? null;
  await producer.enqueue('integration.import', { connectionId: o.connectionId, driveId, itemId });
  await eventually(async () => {
    const job = await producer
      .queue('integrations')
      .getJob(`import-${o.connectionId}-${encodeURIComponent(driveId)}-${encodeURIComponent(itemId)}`);
    return !job; // finished jobs of integration.import are not kept
  }, 30_000);
  return { before, after: await itemOf(o.connectionId, itemId) };
}

const menuPdf = () =>
  makePdf([
    {
      heading: 'Espiga bakery menu',
      paragraphs: [['Our sourdough loaf costs four euros and is baked every morning at six.']],
    },
  ]);

describe('integration.import: a file of SharePoint or OneDrive becomes a document of the Spark', () => {
  it('imports a PDF of a SharePoint library: stored, read by the ingestion, followed with its eTag and its path', async () => {
    const o = await connectedOwner();
    const drive = graph.addDrive('Documents', 'Bakery');
    const file = graph.addFile(drive, { name: 'Menu.pdf', content: await menuPdf() });
    await runImport(o, drive.id, file.id);
    const [doc] = await documentsOf(o.sparkId);
    expect(doc).toMatchObject({ name: 'Menu.pdf' });
    await eventually(async () => (await documentsOf(o.sparkId))[0].status === 'completed', 30_000);
    expect(await chunkText(doc.id)).toMatch(/sourdough loaf costs four euros/);
    expect(await itemOf(o.connectionId, file.id)).toEqual({
      e_tag: file.eTag,
      path: 'Sites/Bakery/Menu.pdf',
      document_id: doc.id,
      skipped: null,
    });
    // The builder says it read the file, in the builder chat.
    await eventually(async () =>
      (await aiMessages(o.conversationId)).some(
        (m) => m.type === 'document' && /I've read \*\*Menu\.pdf\*\*/.test(m.content),
      ),
    );
    // The documents list says where it came from.
    const list = await t
      .http()
      .get(`/api/v1/sparks/${o.sparkId}/documents`)
      .set(...o.user.auth())
      .expect(200);
    expect(list.body.data[0].source).toEqual({
      service: 'sharepoint',
      path: 'Sites/Bakery/Menu.pdf',
      text: 'from SharePoint: Sites/Bakery/Menu.pdf',
    });
  });

  it('imports a Word document (.docx) of a OneDrive folder through mammoth; the source reads in Spanish too', async () => {
    const o = await connectedOwner('es');
    const drive = graph.addDrive('OneDrive');
    const folder = graph.addFolder(drive, 'Carta');
    const file = graph.addFile(drive, {
      name: 'Horario.docx',
      parentId: folder.id,
      content: makeDocx(['Horario de Espiga.', 'Abrimos de lunes a sábado de ocho a veinte horas.']),
    });
    await runImport(o, drive.id, file.id);
    await eventually(async () => (await documentsOf(o.sparkId))[0]?.status === 'completed', 30_000);
    const [doc] = await documentsOf(o.sparkId);
    expect(doc.storage_key).toMatch(/^documents\/[0-9a-f-]+\.docx$/);
    expect(await chunkText(doc.id)).toMatch(/Abrimos de lunes a sábado de ocho a veinte horas/);
    const list = await t
      .http()
      .get(`/api/v1/sparks/${o.sparkId}/documents`)
      .set(...o.user.auth())
      .expect(200);
    expect(list.body.data[0].source.text).toBe('de OneDrive: My files/Carta/Horario.docx');
  });

  it('imports a text file (.md) as the upload takes it; one that is not UTF-8 text is skipped', async () => {
    const o = await connectedOwner();
    const drive = graph.addDrive('OneDrive');
    const notes = graph.addFile(drive, {
      name: 'Opening hours.md',
      content: Buffer.from('# Espiga\n\nWe open Monday to Saturday from eight to eight; closed on Sundays.\n', 'utf8'),
    });
    const latin1 = graph.addFile(drive, { name: 'Precios.txt', content: Buffer.from('Panadería: 2 €', 'latin1') });
    await runImport(o, drive.id, notes.id);
    await runImport(o, drive.id, latin1.id);
    await eventually(async () => (await documentsOf(o.sparkId))[0]?.status === 'completed', 30_000);
    const docs = await documentsOf(o.sparkId);
    expect(docs).toHaveLength(1);
    expect(docs[0].storage_key).toMatch(/^documents\/[0-9a-f-]+\.md$/);
    expect(await chunkText(docs[0].id)).toMatch(/closed on Sundays/);
    expect((await itemOf(o.connectionId, latin1.id)).skipped).toBe('UNSUPPORTED');
  });

  it('dedupes: the same unchanged file is not imported twice; a changed one replaces its knowledge, not adds to it', async () => {
    const o = await connectedOwner();
    const drive = graph.addDrive('Documents', 'Dedupe');
    const file = graph.addFile(drive, { name: 'Menu.pdf', content: await menuPdf() });
    await runImport(o, drive.id, file.id);
    await eventually(async () => (await documentsOf(o.sparkId))[0]?.status === 'completed', 30_000);
    const [first] = await documentsOf(o.sparkId);
    const downloads = () => graph.graphRequests.filter((r) => r.endsWith(`/items/${file.id}/content`)).length;
    const fetched = downloads();
    await runImport(o, drive.id, file.id);
    expect(downloads()).toBe(fetched); // not even downloaded again
    expect(await documentsOf(o.sparkId)).toEqual([first]);

    graph.changeFile(
      drive,
      file.id,
      await makePdf([{ heading: 'Espiga bakery menu', paragraphs: [['The rye loaf now costs five euros fifty.']] }]),
    );
    const changedTag = drive.items.get(file.id)!.eTag;
    await runImport(o, drive.id, file.id);
    await eventually(async () => /rye loaf now costs five euros fifty/.test(await chunkText(first.id)), 30_000);
    const docs = await documentsOf(o.sparkId);
    expect(docs).toHaveLength(1);
    expect(docs[0].id).toBe(first.id);
    expect(docs[0].status).toBe('completed');
    expect(docs[0].storage_key).not.toBe(first.storage_key);
    expect(await chunkText(first.id)).not.toMatch(/sourdough/);
    expect((await itemOf(o.connectionId, file.id)).e_tag).toBe(changedTag);
  });

  it('skips, with the reason recorded and told in the chat: a spreadsheet, a file over 10 MB, a PDF that is not one', async () => {
    const o = await connectedOwner();
    const drive = graph.addDrive('Documents', 'Skips');
    const sheet = graph.addFile(drive, { name: 'Prices.xlsx', content: Buffer.from('PK\u0003\u0004 not read') });
    const big = graph.addFile(drive, { name: 'Big.pdf', content: Buffer.alloc(10 * 1024 * 1024 + 1, 0x25) });
    const fake = graph.addFile(drive, { name: 'Fake.pdf', content: Buffer.from('just text, not a PDF') });
    await runImport(o, drive.id, sheet.id);
    await runImport(o, drive.id, big.id);
    await runImport(o, drive.id, fake.id);
    expect((await itemOf(o.connectionId, sheet.id)).skipped).toBe('UNSUPPORTED');
    expect((await itemOf(o.connectionId, big.id)).skipped).toBe('FILE_TOO_LARGE');
    expect((await itemOf(o.connectionId, fake.id)).skipped).toBe('UNSUPPORTED');
    expect(await documentsOf(o.sparkId)).toEqual([]);
    const said = (await aiMessages(o.conversationId)).filter((m) => m.type === 'importSkipped');
    expect(said.map((m) => m.content)).toEqual([
      "I didn't import **Prices.xlsx** from SharePoint. Only PDF, Word (.docx) and UTF-8 text (.txt, .md) files can be imported.",
      "I didn't import **Big.pdf** from SharePoint. It is larger than 10 MB, the most a document can be.",
      "I didn't import **Fake.pdf** from SharePoint. Only PDF, Word (.docx) and UTF-8 text (.txt, .md) files can be imported.",
    ]);
  });

  it("stops at the plan's document count (50 on zaphire): DOCUMENT_LIMIT, nothing stored", async () => {
    const o = await connectedOwner();
    for (let i = 0; i < 50; i += 1) {
      await addDocument(sql(), {
        sparkId: o.sparkId,
        userId: o.userId,
        name: `d${i}.pdf`,
        pages: ['x'],
        language: 'en',
      });
    }
    const drive = graph.addDrive('Documents', 'Full');
    const file = graph.addFile(drive, { name: 'Menu.pdf', content: await menuPdf() });
    await runImport(o, drive.id, file.id);
    expect((await itemOf(o.connectionId, file.id)).skipped).toBe('DOCUMENT_LIMIT');
    expect((await documentsOf(o.sparkId)).filter((d) => d.name === 'Menu.pdf')).toEqual([]);
    const said = (await aiMessages(o.conversationId)).filter((m) => m.reason === 'DOCUMENT_LIMIT');
    expect(said[0].content).toMatch(/Your plan allows 50 documents per Spark/);
  });

  it('refuses a download address off the Graph host and the allowed download hosts (SSRF): nothing fetched there', async () => {
    const o = await connectedOwner();
    const drive = graph.addDrive('Documents', 'Ssrf');
    const file = graph.addFile(drive, { name: 'Menu.pdf', content: await menuPdf() });
    graph.downloadOrigin = 'http://169.254.169.254';
    try {
      await runImport(o, drive.id, file.id);
    } finally {
      graph.downloadOrigin = undefined;
    }
    expect((await itemOf(o.connectionId, file.id)).skipped).toBe('REFUSED');
    expect(await documentsOf(o.sparkId)).toEqual([]);
  });

  it('refreshes an expired access token before reading the file', async () => {
    const o = await connectedOwner();
    await sql().query(`UPDATE integration_connections SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
      o.connectionId,
    ]);
    graph.revokeAccessTokens();
    const refreshes = graph.tokenRequests.filter((r) => r.grant_type === 'refresh_token').length;
    const drive = graph.addDrive('Documents', 'Refresh');
    const file = graph.addFile(drive, { name: 'Menu.pdf', content: await menuPdf() });
    await runImport(o, drive.id, file.id);
    expect((await itemOf(o.connectionId, file.id)).document_id).toEqual(expect.any(String));
    expect(graph.tokenRequests.filter((r) => r.grant_type === 'refresh_token').length).toBe(refreshes + 1);
  });
});

interface Said {
  type: string;
  data: {
    content: string;
    type?: string;
    event?: string;
    options?: Array<{ label: string; value?: string }>;
    buttons?: Array<{ label: string; value?: string }>;
    info?: Array<{ label: string; value: string }>;
  };
}

/** A message to the Spark's builder chat (what the chat's buttons send too); the reply's messages. */
async function builder(o: Pick<Owner, 'user' | 'sparkId'>, text: string): Promise<Said[]> {
  const res = await t
    .http()
    .post(`/api/v1/sparks/${o.sparkId}/messages`)
    .set(...o.user.auth())
    .send({ input: { text } })
    .expect(201);
  return res.body.data.messages as Said[];
}

const optionsOf = (said: Said[]) => said.find((m) => m.data.type === 'options')?.data.options ?? [];
const valueOf = (said: Said[], label: string) => {
  const option = optionsOf(said).find((o) => o.label === label);
  if (!option?.value) throw new Error(`no option ${label} in ${JSON.stringify(optionsOf(said))}`);
  return option.value;
};
const textsOf = (said: Said[]) => said.filter((m) => m.type === 'ai').map((m) => m.data.content);

describe('the builder chat browses SharePoint and OneDrive and imports the picked files', () => {
  it('site → library → folder → file: the file is imported, read, and shown with where it came from', async () => {
    const o = await connectedOwner();
    const drive = graph.addDrive('Documents', 'Kitchen');
    const folder = graph.addFolder(drive, 'Menus');
    const file = graph.addFile(drive, { name: 'Menu.pdf', parentId: folder.id, content: await menuPdf() });
    graph.addFile(drive, { name: 'Prices.xlsx', content: Buffer.from('PK\u0003\u0004') });

    // What the page sends when it comes back with q=sharepoint-conected.
    let said = await builder(o, 'Add a document from SharePoint');
    expect(textsOf(said)).toEqual(['Which SharePoint site is the document in?']);
    said = await builder(o, valueOf(said, 'Kitchen'));
    expect(textsOf(said)).toEqual(['Which document library of Kitchen?']);
    said = await builder(o, valueOf(said, 'Documents'));
    expect(textsOf(said)).toEqual(['In **Sites/Kitchen/Documents**: pick a file to add it, or open a folder.']);
    expect(said.find((m) => m.data.type === 'card')?.data.info).toEqual([
      { label: 'Prices.xlsx', value: 'Only PDF, Word (.docx) and text (.txt, .md) files' },
    ]);
    expect(optionsOf(said).map((x) => x.label)).toEqual(['Folder: Menus', 'Back', 'Done']);
    said = await builder(o, valueOf(said, 'Folder: Menus'));
    said = await builder(o, valueOf(said, 'Menu.pdf'));
    expect(textsOf(said)).toEqual(["I'm importing **Menu.pdf**. I'll tell you what I read from it in a moment."]);
    expect(said.find((m) => m.data.type === 'event')?.data).toMatchObject({
      event: 'documentImport',
      name: 'Menu.pdf',
    });

    await eventually(async () => (await documentsOf(o.sparkId))[0]?.status === 'completed', 30_000);
    const [doc] = await documentsOf(o.sparkId);
    expect(await chunkText(doc.id)).toMatch(/sourdough loaf costs four euros/);
    expect(await itemOf(o.connectionId, file.id)).toMatchObject({
      path: 'Sites/Kitchen/Menus/Menu.pdf',
      document_id: doc.id,
    });
    await eventually(async () =>
      (await aiMessages(o.conversationId)).some(
        (m) => m.type === 'document' && /I've read \*\*Menu\.pdf\*\*/.test(m.content),
      ),
    );
    const list = await t
      .http()
      .get(`/api/v1/sparks/${o.sparkId}/documents`)
      .set(...o.user.auth())
      .expect(200);
    expect(list.body.data[0].source.text).toBe('from SharePoint: Sites/Kitchen/Menus/Menu.pdf');
    // The page's hidden start keyword once it is read: another file is offered; "Done" goes on with the builder.
    said = await builder(o, 'inicio');
    expect(said.find((m) => m.data.type === 'buttons')?.data.buttons?.map((b) => b.label)).toEqual([
      'Add another file',
      'Done',
    ]);
    said = await builder(o, 'done');
    expect(textsOf(said)[0]).toBe("All right, we'll go on.");
  });

  it('OneDrive in Spanish; a value that was not shown, or another tenant’s drive and item typed in, imports nothing', async () => {
    const other = await connectedOwner();
    const theirs = graph.addDrive('Documents', 'Rival');
    const secret = graph.addFile(theirs, { name: 'Secret.pdf', content: await menuPdf() });

    const o = await connectedOwner('es');
    graph.addFile(graph.addDrive('OneDrive'), { name: 'Horario.pdf', content: await menuPdf() });
    await sql().query(`UPDATE integration_connections SET service = 'onedrive' WHERE id = $1`, [o.connectionId]);
    let said = await builder(o, 'Añadir un documento de OneDrive');
    expect(textsOf(said)[0]).toMatch(/^En \*\*My files\*\*/);
    said = await builder(o, 'pick:3');
    expect(textsOf(said)[0]).toBe('Ese no es uno de los archivos que te he mostrado. Elige uno de estos.');
    const crafted = [
      `pick:${secret.id}`,
      `pick:${theirs.id}:${secret.id}`,
      `open:${theirs.id}`,
      JSON.stringify({ driveId: theirs.id, itemId: secret.id }),
    ];
    for (const text of crafted) {
      said = await builder(o, text);
      expect(textsOf(said).join(' ')).not.toMatch(/importando/i);
    }
    expect((await sql().query('SELECT 1 FROM integration_items WHERE item_id = $1', [secret.id])).rows).toEqual([]);
    expect(await documentsOf(o.sparkId)).toEqual([]);
    expect(await documentsOf(other.sparkId)).toEqual([]);
  });

  it("says what is missing: another plan, or a Spark not connected; the plan's document limit refuses the pick", async () => {
    const free = await sparkOwner(t, sql(), { tag: 'sharing-free', language: 'en' });
    const said = await builder(free, 'add a document from sharepoint');
    expect(textsOf(said)).toEqual([
      'Importing documents from SharePoint and OneDrive is part of the Zaphire plan. You can change plan from “Plans”, or upload documents with the attach button.',
    ]);

    const o = await connectedOwner();
    for (let i = 0; i < 50; i += 1) {
      await addDocument(sql(), {
        sparkId: o.sparkId,
        userId: o.userId,
        name: `d${i}.pdf`,
        pages: ['x'],
        language: 'en',
      });
    }
    const drive = graph.addDrive('Documents', 'Fullhouse');
    graph.addFile(drive, { name: 'Menu.pdf', content: await menuPdf() });
    let step = await builder(o, 'add a document from sharepoint');
    step = await builder(o, valueOf(step, 'Fullhouse'));
    step = await builder(o, valueOf(step, 'Documents'));
    step = await builder(o, valueOf(step, 'Menu.pdf'));
    expect(step.find((m) => m.data.type === 'event')?.data).toMatchObject({ event: 'documentLimit', limit: 50 });
    expect(textsOf(step)[0]).toMatch(/Your plan allows 50 documents per Spark/);

    await t
      .http()
      .delete(`/api/v1/sparks/${o.sparkId}/integrations/microsoft`)
      .set(...o.user.auth())
      .expect(200);
    step = await builder(o, 'add a document from sharepoint');
    expect(textsOf(step)[0]).toMatch(/^This Spark is not connected to Microsoft 365 yet/);
  });
});
