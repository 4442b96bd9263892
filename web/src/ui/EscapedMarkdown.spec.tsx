import { render } from '@testing-library/react';

import { escapeMarkdown, highlightMarkdown } from '@sparks/contracts/markdown';

import Markdown from './Markdown';

/**
 * The server escapes what users control before putting it into markdown (libs/contracts/src/markdown.ts);
 * this renders the escaped text with the chat's own renderer and checks that it shows exactly as typed.
 */

const HOSTILE = [
  '<img src=x onerror=window.__pwned=1>',
  '[x](javascript:window.__pwned=1)',
  '![t](http://127.0.0.2:9/x.png)',
  '<script>window.__pwned=1</script>',
  '<https://evil.example>',
  'https://evil.example/x and www.evil.example and ana@evil.example and mailto:ana@evil.example',
  '*em* **strong** _em_ __strong__ ~~del~~ ~del~ `code` ``co`de``',
  '# Heading',
  '  ## Indented heading',
  '- item',
  '+ item',
  '* item',
  '1. item',
  '2026) item',
  '> quote',
  '---',
  '***',
  '___',
  '| a | b |\n| --- | --- |\n| 1 | 2 |',
  'Title\n===',
  'Title\n---',
  '- [ ] task',
  '[ref]: https://evil.example\n[ref]',
  '[^1]\n\n[^1]: note',
  '&lt;b&gt; &amp; &#x3C;img&#x3E; &copy;',
  'line with a trailing backslash\\',
  'trailing double space  \nnext',
  '\\*not em\\*',
  'Café & Co.',
  'O’Brien (2026)! 50% off: 8:00–20:00, 1.80 €; key=value?',
  'a\\',
  '',
];

/** The text a reader sees: every run of whitespace as one space. */
const seen = (element: Element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim();
const plain = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Elements markdown may make of escaped text: paragraphs, line breaks, and (only from indentation) code. */
const INERT = new Set(['DIV', 'P', 'BR', 'PRE', 'CODE']);

/**
 * GFM makes a link of an address written out in full (`https://…`, `www.…`, `ana@example.com`); such a
 * link shows the typed address and goes there, so it is inert too. Any other link is not.
 */
function isAutolink(a: Element): boolean {
  const text = a.textContent ?? '';
  // The renderer percent-encodes what an address may not hold as such.
  const href = a.getAttribute('href') ?? '';
  const decoded = href.replace(/(?:%[0-9A-F]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
  const shown = [text, `http://${text}`, `mailto:${text}`];
  return text !== '' && (shown.includes(href) || shown.includes(decoded));
}

function renderEscaped(markdown: string) {
  const { container } = render(<Markdown content={markdown} />);
  const made = [...container.querySelectorAll('*')]
    .filter((e) => !(e.tagName === 'A' && isAutolink(e)))
    .map((e) => e.tagName);
  return { container, made };
}

/** A fixed pseudo-random sequence, so that a failure can be replayed. */
function* strings(seed: number, count: number): Generator<string> {
  const alphabet = [
    ...'abcXYZ019éñ \t\n\r\\`*_{}[]()#+-.!<>|~&@:/=\'"$%^?;,',
    'www.',
    'http://',
    'mailto:',
    'ana@b.co',
    '&amp;',
    '1. ',
    '- ',
    '> ',
  ];
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state;
  };
  for (let n = 0; n < count; n += 1) {
    let s = '';
    const length = next() % 24;
    for (let i = 0; i < length; i += 1) s += alphabet[next() % alphabet.length];
    yield s;
  }
}

describe('escaped user text in markdown', () => {
  it.each(HOSTILE.map((s) => [s]))('shows %j as typed, and nothing else', (text) => {
    const { container, made } = renderEscaped(escapeMarkdown(text));
    expect(made.filter((tag) => !INERT.has(tag))).toEqual([]);
    expect(seen(container)).toBe(plain(text));
    expect(container.querySelector('img, script, [href^="javascript"]')).toBeNull();
  });

  it('keeps names readable: nothing is escaped in an ordinary name', () => {
    expect(escapeMarkdown('Café & Co.')).toBe('Café \\& Co.');
    expect(escapeMarkdown('Panadería Lucía (Salamanca) 2026.pdf')).toBe('Panadería Lucía (Salamanca) 2026.pdf');
    expect(escapeMarkdown('Horario: de 8:00 a 20:00.')).toBe('Horario: de 8:00 a 20:00.');
  });

  it('holds for 1,000 random strings of markdown’s special characters', () => {
    for (const text of strings(20261124, 1000)) {
      const { container, made } = renderEscaped(escapeMarkdown(text));
      expect({ text, made: made.filter((tag) => !INERT.has(tag)) }).toEqual({ text, made: [] });
      expect({ text, seen: seen(container) }).toEqual({ text, seen: plain(text) });
      container.remove();
    }
  });

  it('highlights whole words of the plain text, and never inside a tag or an address', () => {
    const text =
      'Abrimos a las 8:00 <img src=x onerror=window.__pwned=1> [abrimos](javascript:abrimos()) https://abrimos.example/abrimos ![abrimos](http://127.0.0.2:9/x.png) *abrimos*_abrimos_ abrimos.';
    const markdown = highlightMarkdown(text, (w) => w.toLowerCase() === 'abrimos');
    const { container, made } = renderEscaped(markdown);
    expect(seen(container)).toBe(plain(text));
    expect(container.querySelector('img, script, [href^="javascript"]')).toBeNull();
    expect([...container.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      'https://abrimos.example/abrimos',
      'http://127.0.0.2:9/x.png',
    ]);
    expect(made.filter((tag) => !INERT.has(tag) && tag !== 'STRONG')).toEqual([]);
    // The first word, the two of the fake link, the one of the fake image, the two between asterisks and
    // underscores, and the last; none inside the tag or the address.
    expect([...container.querySelectorAll('strong')].map((s) => s.textContent)).toEqual([
      'Abrimos',
      'abrimos',
      'abrimos',
      'abrimos',
      'abrimos',
      'abrimos',
      'abrimos',
    ]);
  });

  it('highlights random words of random text without changing what it shows', () => {
    for (const text of strings(7, 600)) {
      const markdown = highlightMarkdown(text, (w) => /[ab1]/.test(w));
      const { container, made } = renderEscaped(markdown);
      expect({ text, made: made.filter((tag) => !INERT.has(tag) && tag !== 'STRONG') }).toEqual({ text, made: [] });
      expect({ text, seen: seen(container) }).toEqual({ text, seen: plain(text) });
      container.remove();
    }
  });
});
