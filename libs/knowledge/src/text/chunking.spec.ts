import { splitSentences } from '@sparks/core';
import { chunkDocument, chunkPage } from './chunking';

const SPANISH = [
  'El señor Muñoz llegó a la reunión del año 2001.',
  '¿Quién pagó la cuenta?',
  'La cigüeña voló sobre el pueblo; después, todos se fueron a casa.',
  'La Sra. Peña y el Dr. Gutiérrez, p. ej. los dueños, abren también los sábados.',
];

/** Builds a long page out of many numbered sentences so that any cut inside one would show. */
function longPage(sentences: number): { text: string; all: string[] } {
  const all = Array.from(
    { length: sentences },
    (_, i) => `La frase número ${i + 1} habla de la información que el señor Muñoz añadió en el año ${2000 + i}.`,
  );
  const paragraphs: string[] = [];
  for (let i = 0; i < all.length; i += 5) paragraphs.push(all.slice(i, i + 5).join(' '));
  return { text: paragraphs.join('\n\n'), all };
}

describe('chunkPage', () => {
  it('never cuts a sentence: every sentence is whole in exactly one chunk', () => {
    const { text, all } = longPage(120);
    const chunks = chunkPage(7, text, { target: 500, maxSentence: 2000 });
    expect(chunks.length).toBeGreaterThan(10);
    for (const sentence of all) {
      expect(chunks.filter((c) => c.content.includes(sentence))).toHaveLength(1);
    }
    // Nothing added, nothing lost: the chunks hold the page's sentences in order.
    expect(chunks.flatMap((c) => c.content.split('\n').flatMap((p) => splitSentences(p)))).toEqual(all);
  });

  it('keeps the page number on every chunk', () => {
    expect(chunkPage(42, longPage(30).text, { target: 300, maxSentence: 2000 }).every((c) => c.page === 42)).toBe(true);
  });

  it('keeps chunks near the target size', () => {
    const chunks = chunkPage(1, longPage(200).text, { target: 600, maxSentence: 2000 });
    for (const c of chunks) expect(c.content.length).toBeLessThanOrEqual(600);
  });

  it('keeps Spanish accents and punctuation exactly', () => {
    const text = SPANISH.join(' ');
    const [chunk] = chunkPage(1, text);
    expect(chunk.content).toBe(text);
    expect(chunk.content).toContain('cigüeña');
    expect(chunk.content).toContain('¿Quién pagó la cuenta?');
  });

  it('keeps a heading with the paragraph that follows it, on its own line', () => {
    const [chunk] = chunkPage(1, 'Horario de apertura\n\nAbrimos de lunes a viernes. Cerramos en agosto.');
    expect(chunk.content).toBe('Horario de apertura\nAbrimos de lunes a viernes. Cerramos en agosto.');
  });

  it('splits only a "sentence" longer than any real one (a table without punctuation), at a space', () => {
    const row = Array.from({ length: 400 }, (_, i) => `celda${i}`).join(' ');
    const chunks = chunkPage(1, row, { target: 900, maxSentence: 1000 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.content.length).toBeLessThanOrEqual(1000);
    expect(chunks.map((c) => c.content).join(' ')).toBe(row);
  });

  it('answers no chunk for an empty page', () => {
    expect(chunkPage(3, '')).toEqual([]);
    expect(chunkPage(3, ' \n\n ')).toEqual([]);
  });
});

describe('chunkDocument', () => {
  it('numbers pages from 1 and skips empty ones', () => {
    const chunks = chunkDocument(['Primera página.', '', 'Tercera página.']);
    expect(chunks).toEqual([
      { page: 1, content: 'Primera página.' },
      { page: 3, content: 'Tercera página.' },
    ]);
  });
});
