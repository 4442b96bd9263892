import type { JwtModuleOptions, JwtService, JwtVerifyOptions } from '@nestjs/jwt';
import { createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';

/**
 * The kinds of JWT the api signs, each under its own key: a token of one kind never verifies as another,
 * whatever its claims say.
 */
export type TokenKind = 'access' | 'visitor' | 'admin-session' | 'integration-state';

/** The key of one kind of token: HKDF-SHA-256 of JWT_SECRET, with the kind as the info (256 bits). */
export function tokenKey(secret: string, kind: TokenKind): KeyObject {
  return createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'sparks jwt', `sparks jwt ${kind}`, 32)));
}

/**
 * The signing and checking of one kind of the api's JWTs: HS256 only, with its derived key as a key object
 * made once. (Given the secret as a string, jsonwebtoken makes a key object on every check — first trying it
 * as a public key and failing — which was the largest CPU cost of an authenticated request.)
 */
export function jwtOptions(secret: string, kind: TokenKind): JwtModuleOptions {
  const key = tokenKey(secret, kind);
  return {
    secretOrKeyProvider: () => key,
    signOptions: { algorithm: 'HS256' },
    verifyOptions: { algorithms: ['HS256'] },
  };
}

/**
 * Verifies a token and requires it to expire: every token the api signs carries `exp`, so one without it
 * was not made here (jsonwebtoken itself accepts it). Rejects like `verifyAsync`.
 */
export async function verifyExpiring<T extends object>(
  jwt: JwtService,
  token: string,
  options?: JwtVerifyOptions,
): Promise<T & { exp: number }> {
  const claims = await jwt.verifyAsync<T & { exp?: unknown }>(token, options);
  if (typeof claims.exp !== 'number') throw new Error('the token has no expiry');
  return claims as T & { exp: number };
}
