import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt } from 'node:crypto';

/** An opaque secret for links and refresh tokens: 256 random bits, URL-safe. */
export const newSecret = () => randomBytes(32).toString('base64url');
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

// The secrets sealed under are 256 random bits, so HKDF (no slow password hashing) derives the key.
const sealKey = (secret: string, context: string) =>
  Buffer.from(hkdfSync('sha256', secret, context, 'sparks sealed value', 32));

/** Encrypts `value` (AES-256-GCM) so that only a holder of `secret` can read it back. */
export function seal(secret: string, context: string, value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(secret, context), iv);
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The value `seal` encrypted, or undefined when `sealed` was not sealed under this secret and context. */
export function unseal(secret: string, context: string, sealed: string): string | undefined {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < 28) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(secret, context), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
