import { hasEofMarker, hasPdfHeader } from './magic';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('PDF magic bytes', () => {
  it('recognises a PDF by its first bytes', () => {
    expect(hasPdfHeader(bytes('%PDF-1.7\n%âãÏÓ\n1 0 obj'))).toBe(true);
    expect(hasPdfHeader(bytes('%PDF-'))).toBe(true);
  });

  it('refuses anything else, whatever it is called', () => {
    expect(hasPdfHeader(PNG)).toBe(false);
    expect(hasPdfHeader(bytes('%PDF'))).toBe(false);
    expect(hasPdfHeader(bytes(' %PDF-1.4'))).toBe(false);
    expect(hasPdfHeader(bytes('<html>%PDF-1.4'))).toBe(false);
    expect(hasPdfHeader(new Uint8Array())).toBe(false);
  });

  it('tells a complete file from one cut short', () => {
    const whole = `%PDF-1.4\n${'x'.repeat(10_000)}\nstartxref\n123\n%%EOF\n`;
    expect(hasEofMarker(bytes(whole))).toBe(true);
    expect(hasEofMarker(bytes(whole.slice(0, 6000)))).toBe(false);
    expect(hasEofMarker(bytes(`${whole}${' '.repeat(100)}`))).toBe(true);
  });
});
