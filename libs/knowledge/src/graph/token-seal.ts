import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A connection's OAuth tokens at rest: AES-256-GCM under `INTEGRATION_TOKEN_KEY`, with what the value
 * belongs to (`<sparkId>:<provider>:<kind>`) as associated data, so a sealed token copied into another
 * row, or an access token put where the refresh token goes, does not open. Format (base64url):
 * 12-byte IV, 16-byte tag, ciphertext, prefixed with `v1.`.
 */
export function sealToken(key: Buffer, context: string, value: string): string {
  if (key.length !== 32) throw new TypeError('the token key must be 32 bytes');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The token `sealToken` sealed, or undefined when it was sealed under another key or context (or altered). */
export function openToken(key: Buffer, context: string, sealed: string): string | undefined {
  if (!sealed.startsWith('v1.')) return undefined;
  const raw = Buffer.from(sealed.slice(3), 'base64url');
  if (raw.length < 28) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
