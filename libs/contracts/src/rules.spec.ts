import {
  isRateableAnswerKind,
  isStartKeyword,
  objectivesKey,
  objectivesScope,
  START_KEYWORD,
  textSearchConfig,
} from './rules';

describe('rules shared by the server and the screens', () => {
  it('knows the start keywords of docs/product.md §4, and only those (not a bare "start")', () => {
    for (const s of [START_KEYWORD, 'INICIO', ' Inicio ', 'inicio en español', 'Start in English', 'inicio en inglés'])
      expect(isStartKeyword(s)).toBe(true);
    for (const s of [
      '',
      'start',
      'hola',
      'inicio ya',
      'start in',
      'inicio de la temporada de rebajas',
      'start the engine',
    ])
      expect(isStartKeyword(s)).toBe(false);
  });

  it('searches Spanish text with the spanish configuration', () => {
    expect(textSearchConfig('es')).toBe('spanish');
    expect(textSearchConfig('en')).toBe('english');
  });

  it('tells a page’s objectives from a Spark’s', () => {
    expect(objectivesScope('deploy')).toEqual({ kind: 'page', page: 'deploy' });
    expect(objectivesScope('profile-menu')).toEqual({ kind: 'page', page: 'profile' });
    expect(objectivesScope('0193a7c2-0000-7000-8000-000000000001')).toEqual({
      kind: 'spark',
      sparkId: '0193a7c2-0000-7000-8000-000000000001',
    });
    expect(objectivesKey(objectivesScope('profile-menu'))).toBe('profile');
    expect(objectivesKey({ kind: 'spark', sparkId: 's1' })).toBe('s1');
  });
});

describe('isRateableAnswerKind (issue 35)', () => {
  it('answers from the documents and "not covered" replies can be rated; small talk, failures and others cannot', () => {
    expect(['answer', 'notCovered'].map(isRateableAnswerKind)).toEqual([true, true]);
    expect(['greeting', 'error', '', undefined, null, 3].map(isRateableAnswerKind)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
