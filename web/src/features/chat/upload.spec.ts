import { MAX_UPLOAD_BYTES } from '@sparks/contracts/rules';

import { checkUpload, formatFileSize, formatMegabytes, looksLikePdf } from './upload';

const PDF_HEAD = new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n');
// The signature and the start of its IHDR chunk (whose length begins with NUL bytes).
const PNG_HEAD = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);

/** A file of a given size whose first bytes are `head` (the rest is never read). */
function fakeFile(name: string, type: string, size: number, head: Uint8Array<ArrayBuffer>) {
  const blob = new Blob([head], { type });
  return { name, type, size, slice: () => blob } as unknown as Blob & { name: string };
}
const headOf = (file: Blob) =>
  new Promise<Uint8Array>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(file.slice(0, 1024));
  });

describe('formatMegabytes', () => {
  it('writes the size in MB with two decimals in the language’s way', () => {
    expect(formatMegabytes(12.345 * 1024 * 1024, 'en')).toBe('12.35');
    expect(formatMegabytes(12.345 * 1024 * 1024, 'es')).toBe('12,35');
    expect(formatMegabytes(MAX_UPLOAD_BYTES + 1, 'en')).toBe('10.00');
    expect(formatMegabytes(15_728_640, 'es')).toBe('15,00');
    expect(formatMegabytes(1234.5 * 1024 * 1024, 'en')).toBe('1234.50');
  });
});

describe('formatFileSize', () => {
  it('answers KB below 1 MB and MB with two decimals above', () => {
    expect(formatFileSize(300, 'en')).toEqual({ value: '1', unit: 'KB' });
    expect(formatFileSize(48_200, 'es')).toEqual({ value: '47', unit: 'KB' });
    expect(formatFileSize(2.5 * 1024 * 1024, 'es')).toEqual({ value: '2,50', unit: 'MB' });
  });
});

describe('looksLikePdf', () => {
  it('finds the %PDF- signature in the first kilobyte', () => {
    expect(looksLikePdf(PDF_HEAD)).toBe(true);
    expect(looksLikePdf(new Uint8Array([0x0a, 0x0a, ...PDF_HEAD]))).toBe(true);
    expect(looksLikePdf(PNG_HEAD)).toBe(false);
    expect(looksLikePdf(new Uint8Array())).toBe(false);
  });
});

const DOCX_HEAD = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);
const TEXT_HEAD = new TextEncoder().encode('# Menú\n\nPan: 2 €\n');

describe('checkUpload (docs/product.md §5: a PDF, a .docx or text, at most 10 MB)', () => {
  it('accepts a PDF up to 10 MB', async () => {
    await expect(checkUpload(fakeFile('menú.pdf', 'application/pdf', 2048, PDF_HEAD), headOf)).resolves.toEqual({
      ok: true,
    });
    await expect(checkUpload(fakeFile('edge.PDF', '', MAX_UPLOAD_BYTES, PDF_HEAD), headOf)).resolves.toEqual({
      ok: true,
    });
  });

  it('refuses another type, and a picture renamed .pdf, as an incorrect format', async () => {
    await expect(checkUpload(fakeFile('photo.png', 'image/png', 2048, PNG_HEAD), headOf)).resolves.toEqual({
      ok: false,
      reason: 'format',
    });
    await expect(checkUpload(fakeFile('photo.pdf', 'application/pdf', 2048, PNG_HEAD), headOf)).resolves.toEqual({
      ok: false,
      reason: 'format',
    });
    await expect(checkUpload(fakeFile('empty.pdf', 'application/pdf', 0, new Uint8Array()), headOf)).resolves.toEqual({
      ok: false,
      reason: 'format',
    });
  });

  it('accepts a Word document and text by their names and first bytes', async () => {
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    for (const file of [
      fakeFile('carta.docx', docx, 4096, DOCX_HEAD),
      fakeFile('CARTA.DOCX', '', 4096, DOCX_HEAD),
      fakeFile('faq.txt', 'text/plain', 20, TEXT_HEAD),
      fakeFile('menu.md', '', 20, TEXT_HEAD),
      fakeFile('notes.markdown', 'text/markdown', 20, TEXT_HEAD),
    ]) {
      await expect(checkUpload(file, headOf)).resolves.toEqual({ ok: true });
    }
  });

  it('refuses a picture renamed .docx or .txt, and text named .docx', async () => {
    for (const file of [
      fakeFile('photo.docx', '', 2048, PNG_HEAD),
      fakeFile('photo.txt', 'text/plain', 2048, PNG_HEAD),
      fakeFile('notes.docx', '', 20, TEXT_HEAD),
      fakeFile('notes.rtf', 'text/rtf', 20, TEXT_HEAD),
      fakeFile('empty.txt', 'text/plain', 0, new Uint8Array()),
    ]) {
      await expect(checkUpload(file, headOf)).resolves.toEqual({ ok: false, reason: 'format' });
    }
  });

  it('refuses a PDF over 10 MB with its size', async () => {
    const bytes = MAX_UPLOAD_BYTES + 1;
    await expect(checkUpload(fakeFile('big.pdf', 'application/pdf', bytes, PDF_HEAD), headOf)).resolves.toEqual({
      ok: false,
      reason: 'size',
      bytes,
    });
  });
});
