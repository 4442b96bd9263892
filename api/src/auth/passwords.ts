import { hash, verify } from '@node-rs/argon2';

/** `standard` everywhere; `test-minimal` only where the config allows it (NODE_ENV=test, see libs/core config). */
export type PasswordHashCost = 'standard' | 'test-minimal';

// argon2id (the library's default algorithm) with OWASP's recommended cost; the test cost is argon2's
// minimum (8 KiB, one pass), so test runs that make hundreds of users do not spend seconds hashing.
// A hash carries its own parameters: verify() reads them from it, whatever the cost it was made at.
const OPTIONS: Record<PasswordHashCost, { memoryCost: number; timeCost: number; parallelism: number }> = {
  standard: { memoryCost: 19456, timeCost: 2, parallelism: 1 },
  'test-minimal': { memoryCost: 8, timeCost: 1, parallelism: 1 },
};

export const hashPassword = (password: string, cost: PasswordHashCost = 'standard') => hash(password, OPTIONS[cost]);

export async function verifyPassword(hashed: string | null, password: string): Promise<boolean> {
  if (!hashed) return false;
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the user does not exist, so timing does not tell who does. */
const dummies = new Map<PasswordHashCost, Promise<string>>();
export function dummyHash(cost: PasswordHashCost = 'standard'): Promise<string> {
  let dummy = dummies.get(cost);
  if (!dummy) dummies.set(cost, (dummy = hashPassword('not-a-real-password-Aa1!', cost)));
  return dummy;
}
