import type { JwtModuleOptions } from '@nestjs/jwt';
import { createSecretKey } from 'node:crypto';

/**
 * The signing and checking of the api's JWTs: HS256 only, with the secret as a key object made once.
 * (Given the secret as a string, jsonwebtoken makes a key object on every check — first trying it as
 * a public key and failing — which was the largest CPU cost of an authenticated request.)
 */
export function jwtOptions(secret: string): JwtModuleOptions {
  const key = createSecretKey(Buffer.from(secret));
  return {
    secretOrKeyProvider: () => key,
    signOptions: { algorithm: 'HS256' },
    verifyOptions: { algorithms: ['HS256'] },
  };
}
