import { interpolate, t, texts } from './texts';

describe("the server's texts", () => {
  it('reads a text by its key in the language asked, its placeholders filled', () => {
    expect(t('en', 'sparks.testName', { number: 3 })).toBe('Test 3');
    expect(t('es', 'sparks.testName', { number: 3 })).toBe('Prueba 3');
    expect(t('en', 'emails.verification.subject', { code: '123456' })).toBe('Your Sparks code: 123456');
  });

  it('gives a text in every language for the flow definitions', () => {
    expect(texts('objectives.pageTitles.billing')).toEqual({ es: 'Facturación', en: 'Billing' });
  });

  it('answers the key itself for a key built at run time that has no text', () => {
    const key = ['errors', 'NO_SUCH_CODE'].join('.') as Parameters<typeof t>[1];
    expect(t('en', key)).toBe('errors.NO_SUCH_CODE');
  });
});

describe('interpolate', () => {
  it('puts every value in, as it is or through the given escape, and leaves unknown placeholders', () => {
    expect(interpolate('{a} and {a}, {b}: {missing}', { a: 'x$&', b: 2 })).toBe('x$& and x$&, 2: {missing}');
    expect(interpolate('/spark/{id}', { id: 'a b/c' }, encodeURIComponent)).toBe('/spark/a%20b%2Fc');
  });

  it('does not read a value put in as a placeholder again', () => {
    expect(interpolate('{name} speaks {language}', { name: '{language}', language: 'English' })).toBe(
      '{language} speaks English',
    );
  });
});
