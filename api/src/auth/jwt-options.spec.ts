import { JwtService } from '@nestjs/jwt';
import jwt from 'jsonwebtoken';
import { jwtOptions } from './jwt-options';

describe('the api JWTs', () => {
  const secret = 'a-secret-of-the-test-0123456789';
  const service = new JwtService(jwtOptions(secret));

  it('signs HS256 tokens and checks them', async () => {
    const token = await service.signAsync({ sub: 'u1', tv: 0 }, { expiresIn: 60 });
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString())).toMatchObject({ alg: 'HS256' });
    expect(await service.verifyAsync(token)).toMatchObject({ sub: 'u1', tv: 0 });
  });

  it('refuses any other algorithm, even with the same secret, and another secret', async () => {
    const hs512 = jwt.sign({ sub: 'u1', tv: 0 }, secret, { algorithm: 'HS512' });
    await expect(service.verifyAsync(hs512)).rejects.toThrow(/invalid algorithm/);
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"u1","tv":0}').toString('base64url')}.`;
    await expect(service.verifyAsync(none)).rejects.toThrow();
    const other = jwt.sign({ sub: 'u1', tv: 0 }, 'another-secret', { algorithm: 'HS256' });
    await expect(service.verifyAsync(other)).rejects.toThrow(/invalid signature/);
  });
});
