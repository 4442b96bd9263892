import { createHash, randomBytes, randomInt } from 'node:crypto';

/** An opaque secret for links and refresh tokens: 256 random bits, URL-safe. */
export const newSecret = () => randomBytes(32).toString('base64url');
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
