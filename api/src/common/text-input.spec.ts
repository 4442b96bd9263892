import { findBadQueryEscape, findBadText, hasBadCharacter, isUtf8 } from './text-input';

describe('text input rules', () => {
  it('flags NUL and lone surrogates, and nothing else', () => {
    expect(hasBadCharacter('a\u0000b')).toBe(true);
    expect(hasBadCharacter('a\uD800b')).toBe(true);
    expect(hasBadCharacter('a\uDC00')).toBe(true);
    expect(hasBadCharacter('\uDBFF')).toBe(true);
    expect(hasBadCharacter('\uDC00\uD800')).toBe(true);
    expect(hasBadCharacter('emoji 😀 ñ 漢字 \u0001 \uFFFD')).toBe(false);
    expect(hasBadCharacter('\uD83D\uDE00')).toBe(false);
  });

  it('names the first bad string of a body by its path, values and keys alike', () => {
    expect(findBadText({ name: 'ok', options: { initialMessage: 'x\u0000' } })).toBe('options.initialMessage');
    expect(findBadText({ input: { text: 'fine' }, list: ['a', { deep: '\uD800' }] })).toBe('list.1.deep');
    expect(findBadText({ config: { 'la\u0000ng': 'es' } })).toBe('config.la\uFFFDng');
    expect(findBadText('\uDFFF')).toBe('');
    expect(findBadText({ a: 1, b: null, c: [true, 'ok'], d: '😀' })).toBeUndefined();
    expect(findBadText(undefined)).toBeUndefined();
  });

  it('walks a deeply nested body without recursion', () => {
    let body: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) body = [body];
    expect(findBadText(body)).toMatch(/^0(\.0)+$/);
  });

  it('finds query escapes that are not UTF-8', () => {
    expect(findBadQueryEscape('/x?to=a%40b.c&input.text=%ED%A0%80')).toBe('input.text');
    expect(findBadQueryEscape('/x?input.text=%C3%A9%F0%9F%98%80&q=100%&r=%zz')).toBeUndefined();
    expect(findBadQueryEscape('/x?a=%FF')).toBe('a');
    expect(findBadQueryEscape('/x?%ED%A0%80=1')).toBe('\uFFFD\uFFFD\uFFFD');
    expect(findBadQueryEscape('/x')).toBeUndefined();
  });

  it('tells UTF-8 from bytes that are not', () => {
    expect(isUtf8(Buffer.from('ñ 😀'))).toBe(true);
    expect(isUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(false);
    expect(isUtf8(Buffer.from([0xc3]))).toBe(false);
  });
});
