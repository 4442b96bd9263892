import en from './locales/en/knowledge.json';
import es from './locales/es/knowledge.json';
import {
  checksChangedMessage,
  documentFailedMessage,
  documentReadMessage,
  documentSyncMessage,
  isIngestionErrorCode,
} from './knowledge';

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );

describe('document messages', () => {
  it('has every text in both languages', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('says what was read, with plurals and local number formats', () => {
    expect(documentReadMessage('en', { name: 'Menu.pdf', pages: 12, chars: 34567, emptyPages: 0 })).toBe(
      "I've read **Menu.pdf**: 12 pages, 34,567 characters.",
    );
    expect(documentReadMessage('es', { name: 'Carta.pdf', pages: 1, chars: 12345, emptyPages: 0 })).toBe(
      'He leído **Carta.pdf**: 1 página, 12.345 caracteres.',
    );
    expect(documentReadMessage('es', { name: 'a.pdf', pages: 3, chars: 900, emptyPages: 2 })).toMatch(
      /^He leído \*\*a\.pdf\*\*: 3 páginas, 900 caracteres\. 2 páginas no tienen texto/,
    );
  });

  it('explains why a document could not be read, in the owner’s language', () => {
    expect(documentFailedMessage('en', { name: 'x.pdf', code: 'ENCRYPTED' })).toBe(
      "I couldn't read **x.pdf**. It is protected with a password. Save a copy without the protection and upload that one.",
    );
    expect(
      documentFailedMessage('es', { name: 'x.pdf', code: 'TOO_MANY_PAGES', params: { pages: 2500, max: 2000 } }),
    ).toContain('Tiene 2500 páginas y puedo leer como máximo 2000');
  });

  it('tells what the sync of SharePoint or OneDrive did with a followed file, in the owner’s language', () => {
    expect(documentSyncMessage('en', { event: 'deleted', name: 'Menu.pdf', service: 'OneDrive' })).toBe(
      '**Menu.pdf** was deleted from OneDrive, so I no longer use it in my answers.',
    );
    expect(
      documentSyncMessage('es', {
        event: 'skipped',
        reason: 'TOO_LARGE',
        maxMb: 10,
        name: 'Carta_*v2*.pdf',
        service: 'SharePoint',
      }),
    ).toBe(
      '**Carta\\_\\*v2\\*.pdf** ha cambiado en SharePoint, pero su nueva versión ocupa más de 10 MB, lo máximo que puedo leer: sigo respondiendo con la versión que había leído.',
    );
    expect(
      documentSyncMessage('en', { event: 'skipped', reason: 'UNSUPPORTED', maxMb: 10, name: 'a.xlsx', service: 'X' }),
    ).toContain('no longer a PDF, a Word document (.docx) or a UTF-8 text file (.txt, .md)');
  });

  it('never lets a file name become markup, an entity or a link that shows something else', () => {
    expect(
      documentReadMessage('en', {
        name: '[click](javascript:alert(1))*bold* &amp; https://evil.example/(1).pdf',
        pages: 1,
        chars: 10,
        emptyPages: 0,
      }),
    ).toBe(
      "I've read **\\[click\\](javascript:alert(1))\\*bold\\* \\&amp; https\\://evil.example/(1).pdf**: 1 page, 10 characters.",
    );
    expect(documentFailedMessage('es', { name: '<img src=x onerror=alert(1)>_x_.pdf', code: 'ENCRYPTED' })).toMatch(
      /^No he podido leer \*\*\\<img src=x onerror=alert\(1\)\\>\\_x\\_\.pdf\*\*\. /,
    );
  });

  it('knows its reason codes', () => {
    expect(isIngestionErrorCode('NO_TEXT')).toBe(true);
    expect(isIngestionErrorCode('toString')).toBe(false);
  });
});

describe('what a document covers (issue 18 item 3)', () => {
  it('names its first lines after the figures, escaped, without repeats', () => {
    const { documentReadMessage, documentTopics } = jest.requireActual<typeof import('./knowledge')>('./knowledge');
    const topics = documentTopics([
      'Horario de la Panadería Sol\nDe lunes a sábado abrimos de 8:00 a 20:30. Horario de la Panadería Sol',
      'Pan de *masa madre*.',
    ]);
    expect(topics).toEqual([
      'Horario de la Panadería Sol',
      'De lunes a sábado abrimos de 8:00 a 20:30.',
      'Pan de *masa madre*.',
    ]);
    expect(documentReadMessage('es', { name: 'a.pdf', pages: 1, chars: 10, emptyPages: 0, topics })).toBe(
      'He leído **a.pdf**: 1 página, 10 caracteres. Empieza por: “Horario de la Panadería Sol”; “De lunes a sábado abrimos de 8:00 a 20:30.”; “Pan de \\*masa madre\\*.”.',
    );
  });
});

describe('checksChangedMessage (issue 35 item 3)', () => {
  it('counts the changes in the owner’s language and puts each question over its two answers, pipes escaped', () => {
    const text = checksChangedMessage('en', [
      { question: 'Price | *per* day?', expected: 'It is 45.\n\n— *Menu, page 1*', now: 'It is 50 | tax included.' },
    ]);
    expect(text).toContain('1 of your checks got another answer');
    expect(text).toContain('**Price \\| \\*per\\* day?**\n\n| Approved answer | Answer now |\n| --- | --- |\n');
    expect(text).toContain('| It is 45. — *Menu, page 1* | It is 50 \\| tax included. |');
    const es = checksChangedMessage('es', [
      { question: 'a', expected: 'b', now: 'c' },
      { question: 'd', expected: 'e', now: 'f' },
    ]);
    expect(es).toContain('2 de tus comprobaciones han recibido otra respuesta');
    expect(es.match(/\| Respuesta aprobada \| Respuesta ahora \|/g)).toHaveLength(2);
  });
});
