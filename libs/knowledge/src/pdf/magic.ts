const PDF_HEADER = Buffer.from('%PDF-', 'latin1');
const EOF_MARKER = Buffer.from('%%EOF', 'latin1');
/** How far from the end a complete file's last `%%EOF` may be (writers add a few bytes after it). */
const EOF_WINDOW = 4096;

/** A PDF starts with `%PDF-`: the bytes decide, never the name or the declared type. */
export function hasPdfHeader(bytes: Uint8Array): boolean {
  if (bytes.length < PDF_HEADER.length) return false;
  for (let i = 0; i < PDF_HEADER.length; i++) if (bytes[i] !== PDF_HEADER[i]) return false;
  return true;
}

/** How many leading bytes are needed to decide `hasPdfHeader`. */
export const PDF_HEADER_LENGTH = PDF_HEADER.length;

/** A complete PDF ends with `%%EOF`; a file cut short during a copy or download does not. */
export function hasEofMarker(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const from = Math.max(0, buf.length - EOF_WINDOW);
  return buf.indexOf(EOF_MARKER, from) !== -1;
}
