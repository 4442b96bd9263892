import { detectLanguage, textSearchConfig } from './language';

describe('detectLanguage', () => {
  it('recognises Spanish', () => {
    expect(detectLanguage('El horario de atención es de lunes a viernes, y los sábados abrimos por la mañana.')).toBe(
      'es',
    );
    expect(detectLanguage('¿Dónde está la tienda? Está en la calle Mayor, junto al banco.')).toBe('es');
  });

  it('recognises English', () => {
    expect(detectLanguage('The shop is open from Monday to Friday, and on Saturdays it opens in the morning.')).toBe(
      'en',
    );
    expect(detectLanguage('Where is the store? It is on Main Street, next to the bank.')).toBe('en');
  });

  it('goes with the majority in a mixed text', () => {
    const text =
      'Bienvenido a nuestra tienda. Todos los productos que vendemos son de la región y están hechos a mano por artesanos del pueblo. ' +
      'Welcome to our shop.';
    expect(detectLanguage(text)).toBe('es');
  });

  it('does not guess from figures or a couple of words', () => {
    expect(detectLanguage('2024 1.500 3.200 4.100 — 12% 15%')).toBeUndefined();
    expect(detectLanguage('')).toBeUndefined();
  });

  it('names the PostgreSQL text-search configuration', () => {
    expect(textSearchConfig('es')).toBe('spanish');
    expect(textSearchConfig('en')).toBe('english');
  });
});
