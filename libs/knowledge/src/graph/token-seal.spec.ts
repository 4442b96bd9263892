import { randomBytes } from 'node:crypto';
import { loadConfig, tokenKeyBytes } from '@sparks/core';
import { openToken, sealToken } from './token-seal';

describe('integration tokens at rest', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and nothing under another key, another context or altered', () => {
    const sealed = sealToken(key, 's1:microsoft:refresh', 'rt-secret');
    expect(sealed).not.toContain('rt-secret');
    expect(openToken(key, 's1:microsoft:refresh', sealed)).toBe('rt-secret');
    expect(openToken(randomBytes(32), 's1:microsoft:refresh', sealed)).toBeUndefined();
    expect(openToken(key, 's2:microsoft:refresh', sealed)).toBeUndefined();
    expect(openToken(key, 's1:microsoft:access', sealed)).toBeUndefined();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(openToken(key, 's1:microsoft:refresh', `v1.${raw.toString('base64url')}`)).toBeUndefined();
    // A fresh IV each time.
    expect(sealToken(key, 'c', 'v')).not.toBe(sealToken(key, 'c', 'v'));
  });

  it('reads the key as 64 hex digits or base64 of 32 bytes, and nothing else', () => {
    expect(tokenKeyBytes(key.toString('hex'))).toEqual(key);
    expect(tokenKeyBytes(key.toString('base64'))).toEqual(key);
    expect(tokenKeyBytes(randomBytes(16).toString('base64'))).toBeUndefined();
    expect(tokenKeyBytes('correct horse battery staple')).toBeUndefined();
  });

  it('the configuration refuses a Microsoft app without a token key, or a key of the wrong size', () => {
    const base = { DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://x' };
    expect(() => loadConfig({ ...base, MICROSOFT_CLIENT_ID: 'id', MICROSOFT_CLIENT_SECRET: 's' })).toThrow(
      /INTEGRATION_TOKEN_KEY/,
    );
    expect(() => loadConfig({ ...base, INTEGRATION_TOKEN_KEY: 'short' })).toThrow(/INTEGRATION_TOKEN_KEY/);
    const on = loadConfig({
      ...base,
      MICROSOFT_CLIENT_ID: 'id',
      MICROSOFT_CLIENT_SECRET: 's',
      INTEGRATION_TOKEN_KEY: key.toString('base64'),
    });
    expect(on).toMatchObject({ MICROSOFT_ENABLED: true, MICROSOFT_TENANT: 'organizations' });
    expect(loadConfig(base).MICROSOFT_ENABLED).toBe(false);
  });
});
