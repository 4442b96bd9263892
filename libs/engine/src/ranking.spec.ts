import {
  answerKind,
  coverage,
  idf,
  matchWeight,
  nameTerms,
  RANKING,
  rankPassages,
  scoreSentences,
  sentencesOf,
  withNeighbours,
  type WeightedTerm,
} from './ranking';

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

  it('cuts no sentence at an abbreviation or an initial ("Brown v. Board", "St. Johns", "Sr. Muñoz")', () => {
    expect(
      sentencesOf(
        'After the 1954 decision in the court case Brown v. Board of Education of Topeka, families organized academies. ' +
          'The city lies on the St. Johns River.\nEl Sr. Muñoz abre a las 9:00. Cerramos los domingos.',
      ),
    ).toEqual([
      'After the 1954 decision in the court case Brown v. Board of Education of Topeka, families organized academies.',
      'The city lies on the St. Johns River.',
      'El Sr. Muñoz abre a las 9:00.',
      'Cerramos los domingos.',
    ]);
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

  it('tells the names of a question: capitalised words other than its first, in both languages', () => {
    const terms = [term('settlement', 1), term('newcastl', 1), term('record', 1)];
    expect(nameTerms('What was the first recorded settlement in what became Newcastle?', terms)).toEqual([
      false,
      true,
      false,
    ]);
    const es = [term('deb', 1), term('gphc', 1), term('principal', 1)];
    expect(nameTerms('¿Cuál es un deber principal del GPhC?', es)).toEqual([false, true, false]);
    // The question's first word is capitalised because it is first, not because it is a name.
    expect(nameTerms('Saturday hours?', [term('saturday', 1)])).toEqual([false]);
  });

  it('weighs a name the Spark does not mention RANKING.NAME times, so the question is not covered', () => {
    // "What was the first recorded settlement in what became Newcastle?" in a Spark about the plague,
    // which says "became" and "first" but never "Newcastle".
    const terms = [term('first', idf(2, 5)), term('becam', idf(1, 5)), term('newcastl', idf(0, 5))];
    const held = [1, 1, 0];
    expect(coverage(held, terms)).toBeGreaterThanOrEqual(RANKING.MIN_COVERAGE);
    expect(coverage(held, terms, [false, false, true])).toBeLessThan(RANKING.MIN_COVERAGE);
    // A name the Spark does mention counts as much more for the question being about it.
    expect(coverage([0, 0, 1], terms, [false, false, true])).toBeGreaterThan(coverage([0, 0, 1], terms));
  });

  it('counts half of what the sentences around hold towards a sentence covering the question', () => {
    expect(withNeighbours([1, 0, 0], [0, 1, 0], [0, 0.4, 1], 0.5)).toEqual([1, 0.5, 0.5]);
    expect(withNeighbours([0, 1], undefined, undefined, 0.5)).toEqual([0, 1]);
    // "Who is the oldest quarterback to play in a Super Bowl?": the name is in the sentence before "He".
    const content =
      'Peyton Manning became the first quarterback to lead two teams to the Super Bowl. He is also the oldest quarterback to play in it, at age 39.';
    const terms = [term('oldest', 2), term('quarterback', 1), term('super', 1), term('bowl', 1)];
    const [first, second] = scoreSentences(content, terms, 'Who is the oldest quarterback to play in a Super Bowl?');
    expect(first.coverage).toBeGreaterThan(0);
    // The neighbour lends coverage, not score: "super" and "bowl" are in the first sentence only.
    const alone = scoreSentences(
      content.split('. ')[1],
      terms,
      'Who is the oldest quarterback to play in a Super Bowl?',
    );
    expect(second.score).toBe(alone[0].score);
    expect(second.coverage).toBeGreaterThan(alone[0].coverage);
  });

  it('counts a word that only begins with the shorter prefix at RANKING.PREFIX_MATCH', () => {
    const deber = term('deber', 1); // prefix "deb"
    expect(matchWeight('deber', deber)).toBe(1);
    expect(matchWeight('debutaron', deber)).toBe(RANKING.PREFIX_MATCH);
    expect(matchWeight('mesa', deber)).toBe(0);
  });

  it('matches a lexicon term by its other words, and counts generic ones only beside a specific one', () => {
    const weekday: WeightedTerm = { ...term('weekday', 1), alts: ['monday', 'friday', 'lun', 'viern'] };
    const close: WeightedTerm = { ...term('close', 1), alts: ['cerr', 'cierr'], generic: true };
    // A related word counts less than the question's own in the Spark's language, fully as a translation.
    expect(matchWeight('weekdays', weekday)).toBe(1);
    expect(matchWeight('monday', weekday)).toBe(RANKING.ALT_MATCH);
    expect(matchWeight('viernes', { ...weekday, altWeight: 1 })).toBe(1);
    expect(matchWeight('cerrado', { ...close, altWeight: 1 })).toBe(1);
    // "What time do you close on weekdays?": "Sunday: closed" holds only the generic word.
    expect(coverage([0, 1], [weekday, close])).toBe(0);
    expect(coverage([1, 0], [weekday, close])).toBe(0.5);
    // A question of generic words only ("When do you close?") is covered by them.
    expect(coverage([1], [close])).toBe(1);
  });

  it('reads "what time" as asking for a time, and leads with the line that gives one', () => {
    expect(answerKind('What time do you close on weekdays?')).toBe('time');
    expect(answerKind('¿A qué hora abrís el sábado?')).toBe('time');
    const close: WeightedTerm = { ...term('close', 1), alts: ['closing'], generic: true };
    const [best] = scoreSentences('Sunday: closed\nClosing: 20:30 every day', [close], 'What time do you close?').sort(
      (a, b) => b.score - a.score,
    );
    expect(best.text).toBe('Closing: 20:30 every day');
  });
});
