import { DomainError } from '@sparks/core';
import { LocalOnlyGuard } from './local-only.guard';

describe('LocalOnlyGuard', () => {
  const guard = new LocalOnlyGuard();
  const ctx = (remoteAddress: string, headers: Record<string, string> = {}) =>
    ({
      switchToHttp: () => ({
        getRequest: () => ({ socket: { remoteAddress }, headers: { host: 'localhost:3000', ...headers } }),
      }),
    }) as never;
  const refused = (c: never) => {
    expect(() => guard.canActivate(c)).toThrow(DomainError);
    try {
      guard.canActivate(c);
    } catch (err) {
      expect((err as DomainError).code).toBe('NOT_FOUND');
    }
  };

  it('lets a direct request from this machine through', () => {
    expect(guard.canActivate(ctx('127.0.0.1'))).toBe(true);
    expect(guard.canActivate(ctx('::1', { host: '[::1]:3000' }))).toBe(true);
    expect(guard.canActivate(ctx('::ffff:127.0.0.1', { host: '127.0.0.1:3100' }))).toBe(true);
  });

  it('answers another machine as if nothing were there, whatever its headers say', () => {
    refused(ctx('203.0.113.9'));
    refused(ctx('10.0.0.2', { 'x-forwarded-for': '127.0.0.1' }));
  });

  it.each([
    ['forwarded', 'for=203.0.113.9'],
    ['x-forwarded-for', '203.0.113.9'],
    ['x-forwarded-for', '127.0.0.1'],
    ['x-forwarded-host', 'sparks.example.com'],
    ['x-forwarded-proto', 'https'],
    ['x-real-ip', '203.0.113.9'],
    ['via', '1.1 proxy'],
    ['true-client-ip', '203.0.113.9'],
  ])('refuses a loopback peer that relays someone else (%s)', (name, value) => {
    refused(ctx('127.0.0.1', { [name]: value }));
  });

  it('refuses a loopback peer asked for a public host name (a proxy, or a DNS-rebinding page)', () => {
    refused(ctx('127.0.0.1', { host: 'sparks.example.com' }));
    refused(ctx('127.0.0.1', { host: 'evil.example:3000' }));
    refused(ctx('127.0.0.1', { host: '' }));
  });
});
