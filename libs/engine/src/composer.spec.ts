import { isGreeting, isStartKeyword, smallTalk } from './composer';

describe('greetings and start keywords', () => {
  it('recognises the start keywords of docs/product.md §4, whatever their case', () => {
    for (const s of [
      'inicio',
      'INICIO',
      'inicio en español',
      'Start in English',
      'start in english',
      'inicio en inglés',
    ]) {
      expect(isStartKeyword(s)).toBe(true);
    }
    for (const s of ['inicio de la temporada de rebajas', 'start the engine now', 'hola'])
      expect(isStartKeyword(s)).toBe(false);
  });

  it('tells a greeting from a question that starts with one', () => {
    for (const s of ['Hola', '¡Hola!', 'buenos días', 'Hi there', 'hello!!', 'inicio'])
      expect(isGreeting(s)).toBe(true);
    for (const s of [
      'Hola, ¿a qué hora abrís los domingos por la tarde?',
      'hi, how much does a rental cost per day?',
      '',
    ]) {
      expect(isGreeting(s)).toBe(false);
    }
  });
});

describe('small talk in a test chat (issue 18 item 15)', () => {
  it('a question that starts with thanks is still a question', () => {
    expect(smallTalk('Thanks, and how much is a croissant?')).toBeUndefined();
    expect(smallTalk('gracias, ¿a qué hora abrís el sábado?')).toBeUndefined();
  });
});
