const FALLBACK_NAME = 'document.pdf';
const MAX_NAME_LENGTH = 200;
// C0/C1 controls and the bidirectional overrides that can make "evil.exe.pdf" read as something else.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The name a user gave their file, made safe to show: only its last path segment, without control
 * or direction-changing characters, at most 200 characters. It is display text only; files are
 * stored under generated ids.
 */
export function sanitizeFileName(raw: string | null | undefined): string {
  if (!raw) return FALLBACK_NAME;
  const lastSegment = raw.split(/[/\\]/).pop() ?? '';
  let name = lastSegment.normalize('NFC').replace(UNSAFE, '').replace(/\s+/g, ' ').trim();
  name = name.replace(/^\.+/, '').trim();
  if (name.length > MAX_NAME_LENGTH) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = name.slice(0, MAX_NAME_LENGTH - ext.length).trimEnd() + ext;
  }
  return name || FALLBACK_NAME;
}
