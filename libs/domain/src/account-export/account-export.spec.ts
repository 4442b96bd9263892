import { Writable } from 'node:stream';
import { strFromU8, unzipSync } from 'fflate';
import { exportReadme } from './readme';
import { safeName } from './write-export';
import { ZipSink } from './zip-sink';

describe('the account export', () => {
  it('names files safely in any unzip tool, keeping the owner’s words', () => {
    expect(safeName('Menú de la semana.pdf', 'document')).toBe('Menú de la semana.pdf');
    expect(safeName('../../etc/passwd', 'document')).toBe('-..-etc-passwd');
    expect(safeName('a:b*c?"d"<e>|f\\g', 'x')).toBe('a-b-c-d-e-f-g');
    expect(safeName('line\nbreak\u0000', 'x')).toBe('line-break-');
    expect(safeName('   ', 'spark')).toBe('spark');
    expect(safeName('x'.repeat(200), 'x')).toHaveLength(60);
  });

  it('has a README in both languages naming every folder', () => {
    for (const language of ['en', 'es'] as const) {
      const text = exportReadme(language, { date: '2026-11-28T10:00:00.000Z', email: 'ana@example.com' });
      expect(text).toContain('ana@example.com');
      for (const part of [
        'account/profile.json',
        'billing/checkouts.json',
        'conversations/',
        'documents/files/',
        'documents/text/',
        'owner-answers.json',
        'conversations/visitors/',
      ])
        expect(text).toContain(part);
    }
  });

  it('writes a zip entry by entry into a Writable: text deflated, files as they are', async () => {
    const chunks: Buffer[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    const zip = new ZipSink(out);
    await zip.json('account/profile.json', { name: 'Ana' });
    await zip.add('files/a.pdf', Buffer.from('%PDF-1.7 bytes'), { stored: true });
    await zip.end();
    const entries = unzipSync(new Uint8Array(Buffer.concat(chunks)));
    expect(Object.keys(entries)).toEqual(['account/profile.json', 'files/a.pdf']);
    expect(JSON.parse(strFromU8(entries['account/profile.json']))).toEqual({ name: 'Ana' });
    expect(strFromU8(entries['files/a.pdf'])).toBe('%PDF-1.7 bytes');
  });

  it('a Writable that fails fails the export instead of writing half a zip', async () => {
    const out = new Writable({
      write(_chunk, _encoding, done) {
        done(new Error('disk full'));
      },
    });
    const zip = new ZipSink(out);
    await expect(
      (async () => {
        await zip.add('a.txt', 'x'.repeat(100_000));
        await new Promise((r) => setImmediate(r));
        await zip.add('b.txt', 'y');
        await zip.end();
      })(),
    ).rejects.toThrow('disk full');
  });
});
