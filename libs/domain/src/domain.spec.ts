import { DomainError } from '@sparks/core';
import type { AccountsRepository, DocumentsRepository, SparkRow, SparksRepository } from '@sparks/db';
import { SparkTestRules } from './spark-tests';
import { SparkRules } from './sparks';

const spark = {
  id: 's1',
  name: 'Shop',
  options: { theme: { icon: 'star', palette: { name: 'sea', primary: '#00f', secondary: '#fff' } } },
} as unknown as SparkRow;

function repos(addTest: unknown = { id: 't1' }, createResult?: unknown) {
  const sparks = {
    findOwned: jest.fn(() => Promise.resolve(spark)),
    update: jest.fn((_u: string, _s: string, patch: object) => Promise.resolve({ ...spark, ...patch })),
    createWithinPlan: jest.fn((_u: string, values: object) =>
      Promise.resolve(createResult ?? { kind: 'created', spark: { id: 'new', ...values } }),
    ),
    addTest: jest.fn(() => Promise.resolve(addTest)),
  };
  const accounts = { findUserById: jest.fn(() => Promise.resolve({ language: 'en' })) };
  const documents = { findOwned: jest.fn(() => Promise.resolve(undefined)) };
  return {
    sparks,
    rules: new SparkRules(sparks as unknown as SparksRepository, accounts as unknown as AccountsRepository),
    tests: new SparkTestRules(sparks as unknown as SparksRepository, documents as unknown as DocumentsRepository),
  };
}

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'none',
    (e: DomainError) => e.code,
  );

describe('SparkRules', () => {
  it('refuses a blank name and merges a theme into the current one', async () => {
    const r = repos();
    expect(await code(r.rules.update('u1', 's1', { name: '  ' }))).toBe('BLANK_NAME');
    await r.rules.update('u1', 's1', { theme: { icon: 'moon' } });
    expect(r.sparks.update).toHaveBeenCalledWith('u1', 's1', {
      options: { theme: { icon: 'moon', palette: spark.options.theme?.palette } },
    });
  });

  it('starts a Spark in the user’s language unless told, with the given options on top', async () => {
    const r = repos();
    await r.rules.create('u1', { name: 'Bakery', options: { purpose: 'sell', initialMessage: undefined } });
    const values = r.sparks.createWithinPlan.mock.calls[0][1] as { name: string; options: Record<string, unknown> };
    expect(values.name).toBe('Bakery');
    expect(values.options).toMatchObject({ language: 'en', purpose: 'sell', level: 'PUBLIC' });
    expect(values.options.initialMessage).toEqual(expect.any(String));
  });

  it('refuses a Spark past the plan limit with SPARK_LIMIT and the limit', async () => {
    const r = repos(undefined, { kind: 'full', limit: 5 });
    const err = await r.rules.create('u1', {}).catch((e: DomainError) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('SPARK_LIMIT');
    expect((err as DomainError).details[0].params).toEqual({ limit: 5 });
  });
});

describe('SparkTestRules', () => {
  it('answers the limit and a missing Spark with codes', async () => {
    expect(await code(repos('full').tests.create('u1', 's1', { name: 'T' }))).toBe('TESTS_LIMIT');
    expect(await code(repos('not-found').tests.create('u1', 's1', { name: 'T' }))).toBe('NOT_FOUND');
  });

  it('lets a test point only at a document of the same Spark', async () => {
    const r = repos();
    const refused = await r.tests.create('u1', 's1', { name: 'T', documentId: 'd9' }).catch((e: DomainError) => e);
    expect(refused).toMatchObject({ details: [{ code: 'NOT_FOUND', field: 'params.documentId' }] });
    expect(r.sparks.addTest).not.toHaveBeenCalled();
  });

  it('names tests in the builder’s language', () => {
    expect(SparkTestRules.defaultName('es', 2)).toBe('Prueba 3');
    expect(SparkTestRules.defaultName('en', 0)).toBe('Test 1');
  });
});

describe('a Spark’s instructions carry its current name (issue 31)', () => {
  const named = (name: string, sysPrompt: string, more: object = {}) =>
    ({ ...spark, name, options: { ...spark.options, language: 'en', sysPrompt, ...more } }) as unknown as SparkRow;

  it.each([
    ['the template', 'Espiga', 'You are Espiga, the assistant of Espiga on its website.', 'Espiga Bakery'],
    ['a longer old name', 'Espiga Bakery', 'You are Espiga Bakery, the assistant of Espiga Bakery.', 'Espiga'],
    ['a model’s paragraph', 'Sol', 'You are Sol. Welcome visitors to Sol: a bakery. Solo bread on Sundays.', 'Luna'],
    ['the owner’s own words', 'Sol', 'Answer briefly about our bread.', 'Luna'],
    ['nothing yet', 'Sol', '', 'Luna'],
    ['a name with symbols', 'Pan & Co (1)', 'You are Pan & Co (1), the assistant.', 'Pan+Co?'],
  ])('renaming with %s', async (_case, from, sysPrompt, to) => {
    const r = repos();
    r.sparks.findOwned.mockResolvedValue(named(from, sysPrompt));
    await r.rules.update('u1', 's1', { name: to });
    const sent = (r.sparks.update.mock.calls[0] as unknown[])[2] as { options: { sysPrompt: string } };
    const prompt = sent.options.sysPrompt;
    expect(prompt).toContain(to);
    // The old name is gone, except inside the new one or inside other words ("Solo" stays).
    expect(
      prompt.replaceAll(to, '').match(new RegExp(`(?<![\\p{L}])${from.replace(/[()+?]/g, '\\$&')}(?![\\p{L}])`, 'u')),
    ).toBeNull();
    if (_case === 'a model’s paragraph')
      expect(prompt).toBe('You are Luna. Welcome visitors to Luna: a bakery. Solo bread on Sundays.');
    if (_case === 'the owner’s own words') expect(prompt).toBe('Your name is Luna. Answer briefly about our bread.');
  });

  it('leaves instructions set in the same change as they are, and follows with the business’s name when it was the Spark’s', async () => {
    const r = repos();
    r.sparks.findOwned.mockResolvedValue(named('Sol', 'You are Sol.', { business: 'Sol' }));
    await r.rules.update('u1', 's1', { name: 'Luna', options: { sysPrompt: 'Mine.' } });
    expect(r.sparks.update).toHaveBeenCalledWith('u1', 's1', {
      name: 'Luna',
      options: { sysPrompt: 'Mine.', business: 'Luna' },
    });
  });

  it('in Spanish, says the name in Spanish', async () => {
    const r = repos();
    r.sparks.findOwned.mockResolvedValue(named('Sol', 'Responde solo sobre pan.', { language: 'es' }));
    await r.rules.update('u1', 's1', { name: 'Luna' });
    expect(r.sparks.update).toHaveBeenCalledWith('u1', 's1', {
      name: 'Luna',
      options: { sysPrompt: 'Te llamas Luna. Responde solo sobre pan.' },
    });
  });
});
