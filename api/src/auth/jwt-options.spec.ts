import { JwtService } from '@nestjs/jwt';
import jwt from 'jsonwebtoken';
import { jwtOptions, tokenKey, verifyExpiring } from './jwt-options';

describe('the api JWTs', () => {
  const secret = 'a-secret-of-the-test-0123456789';
  const service = new JwtService(jwtOptions(secret, 'access'));

  it('signs HS256 tokens and checks them', async () => {
    const token = await service.signAsync({ sub: 'u1', tv: 0 }, { expiresIn: 60 });
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString())).toMatchObject({ alg: 'HS256' });
    expect(await verifyExpiring(service, token)).toMatchObject({ sub: 'u1', tv: 0 });
  });

  it('refuses any other algorithm, even with the same key, and another secret', async () => {
    const hs512 = jwt.sign({ sub: 'u1', tv: 0 }, tokenKey(secret, 'access'), { algorithm: 'HS512' });
    await expect(service.verifyAsync(hs512)).rejects.toThrow(/invalid algorithm/);
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"u1","tv":0}').toString('base64url')}.`;
    await expect(service.verifyAsync(none)).rejects.toThrow();
    const other = jwt.sign({ sub: 'u1', tv: 0 }, 'another-secret', { algorithm: 'HS256' });
    await expect(service.verifyAsync(other)).rejects.toThrow(/invalid signature/);
  });

  it('keys each kind of token apart, none of them the secret itself', async () => {
    const kinds = ['access', 'visitor', 'admin-session', 'integration-state'] as const;
    const keys = kinds.map((kind) => tokenKey(secret, kind).export().toString('hex'));
    expect(new Set([...keys, Buffer.from(secret).toString('hex')]).size).toBe(kinds.length + 1);
    const visitor = await new JwtService(jwtOptions(secret, 'visitor')).signAsync({ sub: 'v1' }, { expiresIn: 60 });
    await expect(service.verifyAsync(visitor)).rejects.toThrow(/invalid signature/);
    const withSecret = jwt.sign({ sub: 'u1', tv: 0 }, secret, { algorithm: 'HS256', expiresIn: 60 });
    await expect(service.verifyAsync(withSecret)).rejects.toThrow(/invalid signature/);
  });

  it('requires an expiry', async () => {
    const endless = await service.signAsync({ sub: 'u1', tv: 0 });
    await expect(service.verifyAsync(endless)).resolves.toMatchObject({ sub: 'u1' }); // jsonwebtoken alone accepts it
    await expect(verifyExpiring(service, endless)).rejects.toThrow(/no expiry/);
  });
});
