import { secureCookies } from './cookies';

describe('cookies the app writes', () => {
  it('are Secure when the app is served over https, and only then', () => {
    expect(secureCookies('https:')).toBe(true);
    expect(secureCookies('http:')).toBe(false);
    expect(secureCookies()).toBe(window.location.protocol === 'https:');
  });
});
