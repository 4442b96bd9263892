import { citedPassages, plainTurns } from './llm';

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
