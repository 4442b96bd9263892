import { answerKind, coverage, idf, rankPassages, sentencesOf, type WeightedTerm } from './ranking';

const term = (stem: string, weight: number): WeightedTerm => ({
  stem,
  prefix: stem.length >= 3 ? stem.slice(0, Math.max(3, stem.length - 2)) : null,
  idf: weight,
});

describe('ranking (the offline answer)', () => {
  it('keeps the lines of a list or table apart, and cuts prose at sentence ends', () => {
    expect(
      sentencesOf('Opening hours\nMonday to Friday: 7:30 to 20:30\nSaturday: 8:00 to 15:00. Closed on Sunday.'),
    ).toEqual(['Opening hours', 'Monday to Friday: 7:30 to 20:30', 'Saturday: 8:00 to 15:00.', 'Closed on Sunday.']);
  });

  it('picks the sentence holding the telling words, and the passage holding it', () => {
    const passages = [
      { id: 'a', content: 'We bake bread every morning. Our bakery is in Madrid.' },
      { id: 'b', content: 'Prices\nSourdough loaf: 4.50 euros\nCroissant: 1.20 euros' },
    ];
    const terms = [term('croissant', idf(1, 2)), term('price', idf(1, 2))];
    const [best] = rankPassages(passages, terms, 'What is the price of a croissant?');
    expect(best.passage.id).toBe('b');
    expect(best.best.text).toBe('Croissant: 1.20 euros');
  });

  it('weighs a term the Spark never mentions fully, so a question about something else is not covered', () => {
    // "Who is the chair of the IPCC?" in a Spark about a dynasty that mentions neither word.
    const terms = [term('chair', idf(0, 5)), term('ipcc', idf(0, 5))];
    expect(coverage([0, 0], terms)).toBe(0);
    // A common word held, the telling one missing: below the 25 % a cover needs.
    const mixed = [term('year', idf(5, 5)), term('ipcc', idf(0, 5))];
    expect(coverage([1, 0], mixed)).toBeLessThan(0.25);
  });

  it('tells what kind of answer a question asks for, in both languages', () => {
    expect(answerKind('How many interceptions did he make?')).toBe('number');
    expect(answerKind('¿Cuántos años tenía?')).toBe('number');
    expect(answerKind('When was it founded?')).toBe('year');
    expect(answerKind('¿En qué año se fundó?')).toBe('year');
    expect(answerKind('Who sang the anthem?')).toBe('name');
    expect(answerKind('¿Quién cantó el himno?')).toBe('name');
    expect(answerKind('What is the capital?')).toBeUndefined();
  });
});
