import { safeUrl } from './urls';

describe('safeUrl (docs/product.md §5 link and image allow-list)', () => {
  it.each([
    'https://example.com/a?b=c#d',
    'http://example.com',
    'HTTPS://EXAMPLE.COM',
    'mailto:hola@example.com',
    'irc://irc.example.com/chan',
    'ircs://irc.example.com/chan',
    'xmpp:ana@example.com',
    '/spark/123',
    'docs/page.html',
    './relative',
    '../up',
    '#section',
    '?q=1',
    'path/with:colon',
  ])('keeps %p', (url) => expect(safeUrl(url)).toBe(url));

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    '  javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'data:image/png;base64,AAAA',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com',
    'tel:+34123',
  ])('empties %p', (url) => expect(safeUrl(url)).toBe(''));
});
