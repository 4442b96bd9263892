import { mentionsAny } from './purge';

describe('mentionsAny (what the purge of a deleted account removes)', () => {
  const user = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
  const mentions = mentionsAny([user, 'ana@example.com', 'cus_1234567890abcdef', '']);

  it('finds its ids in job ids, keys and JSON, in any case', () => {
    expect(mentions(`reply-${user}`)).toBe(true);
    expect(mentions(`sparks:privacy:export-${user.toUpperCase()}`)).toBe(true);
    expect(mentions(JSON.stringify({ data: { conversationId: user } }))).toBe(true);
  });

  it('finds its e-mail as written and as rate-limit keys encode it, and its customer id', () => {
    expect(mentions('sparks:rl:register:acct:ana@example.com')).toBe(true);
    expect(mentions('sparks:rl:login:pair:ana%40example.com:abc:127.0.0.1')).toBe(true);
    expect(mentions('{"metadata":{"customerId":"cus_1234567890abcdef"}}')).toBe(true);
  });

  it('leaves what names someone else', () => {
    expect(mentions('reply-0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c')).toBe(false);
    expect(mentions('sparks:rl:register:acct:anabel@example.com')).toBe(false);
    expect(mentions('sparks:rl:login:ip:127.0.0.1')).toBe(false);
    expect(mentions('')).toBe(false);
  });
});
