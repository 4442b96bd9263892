import {
  atLeast,
  chooseSources,
  planSearch,
  prefixIndexQuery,
  sampleCovers,
  searchText,
  sentencesAbout,
  termQuery,
  type SampleView,
  type Term,
} from './retrieval';

const term = (lexeme: string): Term => ({
  lexeme,
  prefix: lexeme.length >= 3 ? lexeme.slice(0, Math.max(3, lexeme.length - 2)) : null,
});

/** Evaluates a tsquery made of quoted operands, `&`, `|` and parentheses against a set of lexemes. */
function holds(query: string, present: Set<string>): boolean {
  const tokens = query.match(/'[^']*'(?::\*)?|[&|()]/g) ?? [];
  let at = 0;
  const operand = (): boolean => {
    const token = tokens[at++];
    if (token !== '(') return present.has(token.replace(/^'|'(?::\*)?$/g, ''));
    const value = anyOf();
    at++; // ')'
    return value;
  };
  const allOf = (): boolean => {
    let value = operand();
    while (tokens[at] === '&') {
      at++;
      value = operand() && value;
    }
    return value;
  };
  const anyOf = (): boolean => {
    let value = allOf();
    while (tokens[at] === '|') {
      at++;
      value = allOf() || value;
    }
    return value;
  };
  return anyOf();
}

describe('retrieval planning', () => {
  it('writes each term as the old loose query did: stem prefix, or the exact stem when short', () => {
    expect(termQuery(term('horari'))).toBe("'hora':*");
    expect(termQuery(term('hor'))).toBe("'hor':*");
    expect(termQuery(term('by'))).toBe("'by'");
    expect(prefixIndexQuery(term('horari'))).toBe("'hora'");
    expect(prefixIndexQuery(term('by'))).toBe("'by'");
    // The index keeps word beginnings of up to 4 letters; longer prefixes are checked on tsv.
    expect(prefixIndexQuery(term('franquici'))).toBe("'fran'");
    expect(prefixIndexQuery(term('señoritas'))).toBe("'seño'");
    // Quotes and backslashes are escaped the way the tsquery parser reads them.
    expect(termQuery({ lexeme: "l'oreal", prefix: "l'ore" })).toBe("'l''ore':*");
    expect(termQuery({ lexeme: 'a\\b', prefix: null })).toBe("'a\\\\b'");
  });

  it('builds "at least m of n" queries that hold exactly when m operands are present', () => {
    const ops = ['a', 'b', 'c', 'd', 'e'].map((x) => `'${x}'`);
    for (let m = 1; m <= 5; m++) {
      const q = atLeast(ops, m)!;
      for (let mask = 0; mask < 32; mask++) {
        const present = new Set(['a', 'b', 'c', 'd', 'e'].filter((_x, i) => mask & (1 << i)));
        expect(holds(q, present)).toBe(present.size >= m);
      }
    }
    expect(atLeast(ops, 6)).toBeUndefined();
    expect(atLeast(ops, 0)).toBeUndefined();
  });

  it('plans the strict tier, then every count of terms down to half of the question', () => {
    const plan = planSearch(['horari', 'apertur', 'sab', 'cual'].map(term));
    expect(plan.tiers.map((t) => t.level)).toEqual(['strict', 4, 3, 2]);
    expect(planSearch(['kalvad'].map(term)).tiers.map((t) => t.level)).toEqual(['strict', 1]);
    expect(planSearch([]).tiers).toEqual([]);
  });

  it('builds the tiers of a long question from its longest terms, still down to a third of all terms', () => {
    const terms = ['can', 'i', 'pay', 'the', 'invoic', 'by', 'credit', 'card'].map(term);
    const plan = planSearch(terms, 6);
    expect(plan.chosen.map((i) => terms[i].lexeme)).toEqual(['can', 'pay', 'the', 'invoic', 'credit', 'card']);
    // A third of 8 is 3 (rounded up); a chunk missing "i" and "by" needs 1 of the 6 chosen terms.
    expect(plan.tiers.map((t) => t.level)).toEqual(['strict', 6, 5, 4, 3, 2, 1]);
  });

  describe('choosing between the sample and the index', () => {
    const plan = planSearch(['envi', 'canari'].map(term)); // tiers: strict, 2, 1
    const sample = (over: Partial<SampleView>): SampleView => ({
      ids: Array.from({ length: 200 }, (_x, i) => `id${i}`),
      termHits: [[], []],
      strictHits: [],
      complete: false,
      ...over,
    });

    it('searches every tier by index, best first, when the sample shows none is common', () => {
      const s = sample({ termHits: [[1, 2, 3], [3]], strictHits: [3] });
      expect(chooseSources(plan, s).map((x) => [x.tier.level, x.from])).toEqual([
        ['strict', 'index'],
        [2, 'index'],
        [1, 'index'],
      ]);
    });

    it('takes a common tier from the sample and searches no tier below it', () => {
      const many = Array.from({ length: 30 }, (_x, i) => i);
      const s = sample({ termHits: [many, [0]], strictHits: [0] });
      const sources = chooseSources(plan, s, 7);
      expect(sources.map((x) => [x.tier.level, x.from])).toEqual([
        ['strict', 'index'],
        [2, 'index'],
        [1, 'sample'],
      ]);
      // Each chunk sits in one tier only: id0 holds every word, so it is not in tier 1.
      const last = sources[2];
      expect(last.from === 'sample' && last.ids).toEqual(many.slice(1).map((i) => `id${i}`));
    });

    it('answers from the sample alone when it holds the whole Spark', () => {
      const s = sample({
        ids: ['a', 'b', 'c', 'd'],
        termHits: [
          [0, 1],
          [1, 2],
        ],
        strictHits: [1],
        complete: true,
      });
      const sources = chooseSources(plan, s);
      expect(sources.map((x) => [x.tier.level, x.from, x.from === 'sample' ? x.ids : []])).toEqual([
        ['strict', 'sample', ['b']],
        [1, 'sample', ['a', 'c']],
      ]);
      expect(sampleCovers(plan, s, sources)).toBe(true);
      expect(sampleCovers(plan, { ...s, termHits: [[], []], strictHits: [] }, [])).toBe(false);
    });
  });
});

describe('the excerpt of a passage', () => {
  it('keeps the sentences holding the question’s words, those words in bold', () => {
    expect(
      sentencesAbout('La tienda está en Salamanca. Abrimos de lunes a sábado de 8:00 a 20:00. Pan cada día.', [
        'abr',
        'sabad',
      ]),
    ).toBe('**Abrimos** de lunes a **sábado** de 8:00 a 20:00.');
  });

  it('escapes what the document says and bolds whole words only, never inside a tag or a link', () => {
    const content =
      'Abrimos <img src=x onerror=window.__pwned=1> y [abrimos](javascript:window.__pwned=1) ![t](http://127.0.0.2:9/x.png) ' +
      'o <a href="https://abrimos.example/abrimos">aquí</a> 1. lunes_abrimos';
    expect(sentencesAbout(content, ['abr'])).toBe(
      '**Abrimos** \\<img src=x onerror=window.\\_\\_pwned=1\\> y \\[**abrimos**\\](javascript:window.\\_\\_pwned=1) ' +
        '!\\[t\\](http\\://127.0.0.2:9/x.png) o \\<a href="https\\://abrimos.example/abrimos"\\>aquí\\</a\\> 1. lunes\\_**abrimos**',
    );
  });

  it('quotes a sentence whole when it holds an abbreviation ("Brown v. Board")', () => {
    expect(
      sentencesAbout('The landmark court case Brown v. Board of Education desegregated schools. It was in 1954.', [
        'desegreg',
      ]),
    ).toBe('The landmark court case Brown v. Board of Education **desegregated** schools.');
  });

  it('never bolds part of a word', () => {
    // "abr" is a prefix of "abrimos", not of "cabra": the word must start with it.
    expect(sentencesAbout('La cabra abrimos.', ['abr'])).toBe('La cabra **abrimos**.');
  });

  it('leaves Spanish question words out of the search, with or without their accent', () => {
    expect(searchText('¿Cómo se financian las escuelas?')).toBe('¿ se financian las escuelas?');
    expect(searchText('¿Cuántos colonos llegaron y cuándo?')).toBe('¿ colonos llegaron y ?');
    expect(searchText('cual es el precio, quienes vienen, donde esta')).toBe('es el precio, vienen, esta');
    // Only whole words: "comenzó", "cualquier", "dondequiera" stay.
    expect(searchText('¿Cuándo comenzó cualquier obra dondequiera?')).toBe('¿ comenzó cualquier obra dondequiera?');
    // English questions are untouched (their question words are PostgreSQL stop words already).
    expect(searchText('How many colonists came, and when?')).toBe('How many colonists came, and when?');
    // A question of nothing else is searched as it is.
    expect(searchText('¿Cómo?')).toBe('¿ ?');
    expect(searchText('Cómo')).toBe('Cómo');
  });
});
