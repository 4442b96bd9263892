import { zipSync } from 'fflate';
import { makeDocx } from './fixtures/docx';
import { scanPng } from './fixtures/pdfs';
import { eventually } from './harness';
import { newFiles, storedFiles, tmpLeftovers, useKnowledgeApp, type Owner } from './support/knowledge';

/**
 * Word documents and text uploaded in a Spark's chat beside PDFs (issue 32 item 5; docs/decisions.md, "Uploads: Word
 * and text beside PDF"): read by the suite's worker and answered from, and what is not one of them refused at the door.
 */
describe('knowledge: .docx, .txt and .md uploads', () => {
  const k = useKnowledgeApp();
  const { owner, spark, upload, waitForStatus } = k;

  /** A question asked in a new test of the Spark: the Spark's answer. */
  const ask = async (user: Owner, sparkId: string, text: string): Promise<string> =>
    (await (await k.testChat(user, sparkId, 'Formats'))(text)).ai.data.content as string;

  it('reads a Word document uploaded in the chat and answers from it, citing it', async () => {
    const user = await owner('en');
    const sparkId = (await spark(user, 'en')).id;
    const conversationId = (await k.conversations.create(user.id, { kind: 'builder', sparkId })).id;
    const docx = makeDocx([
      'Northwind Bakery opening hours',
      'We open Monday to Saturday from 7:00 to 19:00. On Sundays we open from 8:00 to 13:00.',
      'Delivery',
      'We deliver bread to offices within 5 km for a fee of 3 euros, orders before 10:00.',
    ]);
    const res = await upload(
      user,
      { sparkId, conversationId },
      docx,
      'Bakery facts.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ).expect(201);
    const id = res.body.data._id;
    const doc = await waitForStatus(user, sparkId, id, 'completed');
    expect(doc).toMatchObject({ name: 'Bakery facts.docx', pages: 1, language: 'en', error: null });
    expect((await k.documents.findById(id))!.storageKey).toMatch(/^documents\/[0-9a-f-]{36}\.docx$/);
    const answer = await ask(user, sparkId, 'How much is the delivery fee?');
    expect(answer).toContain('3 euros');
    expect(answer).toContain('Bakery facts');
    const [uploaded, read] = await k.conversations.history(conversationId);
    expect(uploaded.data).toMatchObject({ type: 'document', documentId: id });
    expect(read.data).toMatchObject({ type: 'document', documentId: id, status: 'completed' });
    expect(read.data.content).toMatch(/^I've read \*\*Bakery facts\.docx\*\*/);
  });

  it('reads Markdown and plain text (UTF-8, a byte-order mark and Windows line ends included) in Spanish', async () => {
    const user = await owner('es');
    const sparkId = (await spark(user)).id;
    const md = Buffer.from(
      '\uFEFF# Panadería Sol\r\n\r\n## Horario\r\n\r\nAbrimos de lunes a sábado de 7:00 a 20:00.\r\n\r\n' +
        '| Producto | Precio |\r\n| --- | --- |\r\n| Barra de pan | 1,20 € |\r\n| Tarta de Santiago | 18 € |\r\n',
      'utf8',
    );
    const mdRes = await upload(user, { sparkId }, md, 'carta.md', 'text/markdown').expect(201);
    const mdDoc = await waitForStatus(user, sparkId, mdRes.body.data._id, 'completed');
    expect(mdDoc).toMatchObject({ name: 'carta.md', language: 'es' });
    const txt = Buffer.from('Envíos\n\nHacemos envíos a Canarias en cinco días hábiles.\n', 'utf8');
    const txtRes = await upload(user, { sparkId }, txt, 'envios.txt', 'text/plain').expect(201);
    await waitForStatus(user, sparkId, txtRes.body.data._id, 'completed');

    const pages = await k.t
      .http()
      .get(`/api/v1/sparks/${sparkId}/documents/${mdRes.body.data._id}/pages`)
      .set(...user.auth())
      .expect(200);
    const read = JSON.stringify(pages.body.data);
    expect(read).toContain('| Barra de pan | 1,20 € |');
    expect(read).not.toContain('\uFEFF');
    expect(await ask(user, sparkId, '¿Cuánto cuesta la tarta de Santiago?')).toContain('18 €');
    expect(await ask(user, sparkId, '¿Cuánto tardan los envíos a Canarias?')).toContain('cinco días hábiles');
  });

  describe('what is none of the kinds read is refused at the door, and nothing is kept', () => {
    let user: Owner;
    let sparkId: string;
    beforeAll(async () => {
      user = await owner('en');
      sparkId = (await spark(user, 'en')).id;
    });

    const refused: Array<{ what: string; file: () => Buffer; name: string; type: string }> = [
      { what: 'a picture renamed .txt', file: () => scanPng(), name: 'photo.txt', type: 'text/plain' },
      { what: 'text renamed .docx', file: () => Buffer.from('Just text\n'), name: 'notes.docx', type: '' },
      {
        what: 'Latin-1 text (not UTF-8)',
        file: () => Buffer.from('Caf\xe9 y pan\n', 'latin1'),
        name: 'a.txt',
        type: '',
      },
      { what: 'text with a NUL', file: () => Buffer.from('one\u0000two\n'), name: 'a.md', type: 'text/markdown' },
      {
        what: 'UTF-8 cut in the middle of a character',
        file: () => Buffer.from('Precio: 5 €', 'utf8').subarray(0, -1),
        name: 'cut.txt',
        type: 'text/plain',
      },
      { what: 'a Word document named .rtf', file: () => makeDocx(['Hello']), name: 'doc.rtf', type: '' },
    ];

    it.each(refused)('$what → 415 Incorrect format', async ({ file, name, type }) => {
      const before = storedFiles();
      const res = await upload(user, { sparkId }, file(), name, type || 'application/octet-stream').expect(415);
      expect(res.body.errors.map((e: { code: string }) => e.code)).toEqual([
        'INCORRECT_FORMAT',
        'INCORRECT_FORMAT_DETAIL',
      ]);
      expect(res.body.errors[1].message).toBe(
        'Please upload a PDF, a Word document (.docx) or a text file (.txt, .md).',
      );
      expect(await k.documents.listForSpark(user.id, sparkId)).toEqual([]);
      expect(tmpLeftovers()).toEqual([]);
      expect(newFiles(before)).toEqual([]);
    });
  });

  it('refuses a ZIP bomb named .docx as too complex, as it refuses a PDF bomb, in the owner’s language', async () => {
    const user = await owner('es');
    const sparkId = (await spark(user)).id;
    // A megabyte of zeros whose ZIP declares 600 MB once inflated (its central directory's "uncompressed size"):
    // more than the worker may inflate (INGEST_MAX_MEMORY_MB, 512), so it is refused before mammoth opens it.
    const bomb = Buffer.from(zipSync({ 'word/document.xml': new Uint8Array(1024 * 1024) }, { level: 9 }));
    const directory = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bomb.writeUInt32LE(600 * 1024 * 1024, directory + 24);
    const res = await upload(user, { sparkId }, bomb, 'carta.docx', '').expect(201);
    const doc = await waitForStatus(user, sparkId, res.body.data._id, 'error');
    expect(doc.error).toBe('TOO_COMPLEX');
    expect(doc.errorMessage).toMatch(/demasiado complejo/);
    const key = (await k.documents.findById(res.body.data._id))!.storageKey;
    await eventually(() => Promise.resolve(!storedFiles().includes(key)));
  });
});
