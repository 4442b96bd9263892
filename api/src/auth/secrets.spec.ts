import { newSecret, seal, unseal } from './secrets';

describe('sealed values', () => {
  const secret = newSecret();

  it('open with the secret and context they were sealed under', () => {
    const sealed = seal(secret, 'row-1', '{"refresh_token":"abc"}');
    expect(sealed).not.toContain('abc');
    expect(unseal(secret, 'row-1', sealed)).toBe('{"refresh_token":"abc"}');
  });

  it('stay shut to another secret, another context, or after tampering', () => {
    const sealed = seal(secret, 'row-1', 'value');
    expect(unseal(newSecret(), 'row-1', sealed)).toBeUndefined();
    expect(unseal(secret, 'row-2', sealed)).toBeUndefined();
    const raw = Buffer.from(sealed, 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(unseal(secret, 'row-1', raw.toString('base64url'))).toBeUndefined();
    expect(unseal(secret, 'row-1', 'short')).toBeUndefined();
  });
});
