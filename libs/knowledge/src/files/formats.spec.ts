import { TextUploadCheck, uploadKind } from './formats';

const PDF = Buffer.from('%PDF-1.7\n%âãÏÓ\n', 'latin1');
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
const TEXT = Buffer.from('# Menú\n\nPan: 2 €\n', 'utf8');

describe('uploadKind', () => {
  it('knows a PDF by its bytes whatever its name', () => {
    expect(uploadKind(PDF, 'guide.pdf')).toBe('pdf');
    expect(uploadKind(PDF, 'guide.txt')).toBe('pdf');
    expect(uploadKind(PDF, '')).toBe('pdf');
  });

  it('needs the name .docx and a ZIP (or a protected OLE file) for a Word document', () => {
    expect(uploadKind(ZIP, 'Carta.DOCX')).toBe('docx');
    expect(uploadKind(OLE, 'protected.docx')).toBe('docx');
    expect(uploadKind(TEXT, 'notes.docx')).toBeUndefined();
    expect(uploadKind(ZIP, 'archive.zip')).toBeUndefined();
    expect(uploadKind(ZIP, 'notes.txt')).toBeUndefined();
  });

  it('takes text by its name (.txt, .md, .markdown) when its first bytes are not binary', () => {
    expect(uploadKind(TEXT, 'faq.txt')).toBe('txt');
    expect(uploadKind(TEXT, 'menu.md')).toBe('md');
    expect(uploadKind(TEXT, 'menu.MarkDown')).toBe('md');
    expect(uploadKind(Buffer.from('hi'), 'short.txt')).toBe('txt');
    expect(uploadKind(PNG, 'photo.txt')).toBeUndefined();
    expect(uploadKind(TEXT, 'notes.rtf')).toBeUndefined();
    expect(uploadKind(TEXT, 'txt')).toBeUndefined();
  });
});

describe('TextUploadCheck', () => {
  it('passes UTF-8 split anywhere, a character across two chunks included', () => {
    const bytes = Buffer.from('Precio: 5 € — café', 'utf8');
    const euro = bytes.indexOf(0xe2);
    const check = new TextUploadCheck();
    expect(check.push(bytes.subarray(0, euro + 1))).toBe(true);
    expect(check.push(bytes.subarray(euro + 1))).toBe(true);
    expect(check.end()).toBe(true);
  });

  it('fails on bytes that are not UTF-8, on a NUL, and on a character cut at the end', () => {
    const latin1 = new TextUploadCheck();
    expect(latin1.push(Buffer.from('Caf\xe9 con leche', 'latin1'))).toBe(false);
    expect(latin1.end()).toBe(false);
    expect(new TextUploadCheck().push(Buffer.from('a\u0000b'))).toBe(false);
    const cut = new TextUploadCheck();
    expect(cut.push(Buffer.from('5 €', 'utf8').subarray(0, -1))).toBe(true);
    expect(cut.end()).toBe(false);
  });
});
