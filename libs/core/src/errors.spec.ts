import en from './locales/en/errors.json';
import es from './locales/es/errors.json';
import { DomainError, pickLanguage, translateError } from './errors';

describe('server-side messages', () => {
  it('has every error code in both languages', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
  });

  it('picks the first supported language, English otherwise', () => {
    expect(pickLanguage('es-ES,es;q=0.9,en;q=0.8')).toBe('es');
    expect(pickLanguage(undefined, 'fr-FR,de', 'es')).toBe('es');
    expect(pickLanguage('fr')).toBe('en');
    expect(pickLanguage()).toBe('en');
  });

  it('fills placeholders', () => {
    expect(translateError('ROUTE_NOT_FOUND', 'es', { method: 'GET', path: '/x' })).toBe('No hay nada en GET /x');
  });

  it('carries codes, not a transport status', () => {
    const e = DomainError.invalid('REQUIRED', 'username');
    expect(e.code).toBe('REQUIRED');
    expect(e).not.toHaveProperty('status');
    expect(e.details).toEqual([{ code: 'REQUIRED', field: 'username', params: undefined }]);
  });
});
