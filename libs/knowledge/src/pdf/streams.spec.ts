import zlib from 'node:zlib';
import { checkCompressedStreams, checkCompressedStreamsAsync } from './streams';

function pdfWith(streams: Array<{ dict: string; data: Buffer }>): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  streams.forEach((s, i) => {
    parts.push(Buffer.from(`${i + 1} 0 obj\n<< ${s.dict} /Length ${s.data.length} >>\nstream\n`, 'latin1'));
    parts.push(s.data, Buffer.from('\nendstream\nendobj\n', 'latin1'));
  });
  parts.push(Buffer.from('%%EOF\n', 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

const limits = { maxStreamBytes: 1024 * 1024, maxTotalBytes: 3 * 1024 * 1024 };

describe('checkCompressedStreams (decompression bombs)', () => {
  it('lets ordinary compressed content through and counts it', () => {
    const content = zlib.deflateSync(Buffer.from('BT /F1 12 Tf (Hola) Tj ET\n'.repeat(1000)));
    const check = checkCompressedStreams(pdfWith([{ dict: '/Filter /FlateDecode', data: content }]), limits);
    expect(check).toEqual({ ok: true, totalBytes: 26_000 });
  });

  it('refuses a stream that inflates past the per-stream cap', () => {
    const bomb = zlib.deflateSync(Buffer.alloc(8 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(20_000);
    expect(checkCompressedStreams(pdfWith([{ dict: '/Filter /FlateDecode', data: bomb }]), limits).ok).toBe(false);
  });

  it('refuses many streams that together inflate past the total cap', () => {
    const part = zlib.deflateSync(Buffer.alloc(900 * 1024));
    const streams = Array.from({ length: 5 }, () => ({ dict: '/Filter /FlateDecode', data: part }));
    expect(checkCompressedStreams(pdfWith(streams), limits).ok).toBe(false);
  });

  it('sees a bomb hidden under a second compression layer', () => {
    const twice = zlib.deflateSync(zlib.deflateSync(Buffer.alloc(8 * 1024 * 1024)));
    const pdf = pdfWith([{ dict: '/Filter [/FlateDecode /FlateDecode]', data: twice }]);
    expect(checkCompressedStreams(pdf, limits).ok).toBe(false);
  });

  it('does not decode images, which are never read for text', () => {
    const image = zlib.deflateSync(Buffer.alloc(8 * 1024 * 1024));
    const pdf = pdfWith([{ dict: '/Type /XObject /Subtype /Image /Filter /FlateDecode', data: image }]);
    expect(checkCompressedStreams(pdf, limits).ok).toBe(true);
  });
});

describe('checkCompressedStreamsAsync', () => {
  it('gives the same answers without blocking the thread', async () => {
    const content = zlib.deflateSync(Buffer.from('BT /F1 12 Tf (Hola) Tj ET\n'.repeat(1000)));
    const ordinary = pdfWith([{ dict: '/Filter /FlateDecode', data: content }]);
    expect(await checkCompressedStreamsAsync(ordinary, limits)).toEqual({ ok: true, totalBytes: 26_000 });
    const bomb = pdfWith([{ dict: '/Filter /FlateDecode', data: zlib.deflateSync(Buffer.alloc(8 * 1024 * 1024)) }]);
    expect((await checkCompressedStreamsAsync(bomb, limits)).ok).toBe(false);
    const twice = pdfWith([
      { dict: '/Filter [/FlateDecode /FlateDecode]', data: zlib.deflateSync(zlib.deflateSync(Buffer.alloc(8 << 20))) },
    ]);
    expect((await checkCompressedStreamsAsync(twice, limits)).ok).toBe(false);
    const image = pdfWith([
      { dict: '/Subtype /Image /Filter /FlateDecode', data: zlib.deflateSync(Buffer.alloc(8 * 1024 * 1024)) },
    ]);
    expect((await checkCompressedStreamsAsync(image, limits)).ok).toBe(true);
  });
});
