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
