import { citedPassages, numberedPassages, plainTurns } from './llm';
import type { Passage } from './retrieval';

describe('citations of a model’s reply', () => {
  it('reads [n], [n, m] and [n][m] in order of first mention, only numbers that were sent', () => {
    expect(citedPassages('Bikes cost 45 dollars [2]. Helmets are included [1, 2][3].', 3)).toEqual([2, 1, 3]);
    expect(citedPassages('See [0] and [4] and [12].', 3)).toEqual([]);
    expect(citedPassages('No citation at all.', 3)).toEqual([]);
  });
});

describe('the conversation sent to the model', () => {
  it('drops the sources line and the [n] markers of earlier replies, which numbered other passages', () => {
    expect(
      plainTurns([
        { role: 'user', content: 'How much is a bike [1]?' },
        { role: 'assistant', content: 'Rentals cost 25 dollars per day [1].\n\n— *[1] Handbook.pdf, page 2*' },
        { role: 'assistant', content: 'Open from 8 [1, 2].\n\n— *Hours.pdf, page 1*\nAlso in: Hours.pdf, page 2' },
      ]),
    ).toEqual([
      { role: 'user', content: 'How much is a bike [1]?' },
      { role: 'assistant', content: 'Rentals cost 25 dollars per day.' },
      { role: 'assistant', content: 'Open from 8.' },
    ]);
  });
});

describe('the passages as the prompt numbers them', () => {
  const passage = (p: Partial<Passage>): Passage => ({
    chunkId: 'c',
    documentId: 'd',
    documentName: 'Menu.pdf',
    page: 2,
    content: 'A loaf costs 4 euros.',
    excerpt: '',
    rank: 1,
    matched: 1,
    terms: 1,
    strict: true,
    score: 1,
    coverage: 1,
    best: 'A loaf costs 4 euros.',
    ...p,
  });
  const owner = passage({
    origin: 'owner',
    documentName: 'Do you deliver\non Sundays?',
    page: 1,
    content: 'Yes, from 10:00 to 14:00.',
  });

  it('a document’s passage by document and page; the owner’s answer as the business’s answer to its question, not a page', () => {
    expect(numberedPassages('en', [passage({ origin: 'file' }), owner])).toBe(
      '[1] Menu.pdf, page 2\nA loaf costs 4 euros.\n\n' +
        "[2] The business's own answer to the question “Do you deliver on Sundays?”\nYes, from 10:00 to 14:00.",
    );
    expect(numberedPassages('es', [owner, passage({})])).toBe(
      '[1] Respuesta del propio negocio a la pregunta «Do you deliver on Sundays?»\nYes, from 10:00 to 14:00.\n\n' +
        '[2] Menu.pdf, página 2\nA loaf costs 4 euros.',
    );
  });
});
