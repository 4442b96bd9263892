import { MAX_TESTS_PER_SPARK } from '@sparks/contracts';
import { DomainError, t, type Language } from '@sparks/core';
import type { DocumentsRepository, SparkTestRow, SparksRepository } from '@sparks/db';

/**
 * The rules of a Spark's tests, for the api (SparkTestsService) and the worker (the flows' ports):
 * at most MAX_TESTS_PER_SPARK (TESTS_LIMIT), a document only of the same Spark, the defaults.
 */
export class SparkTestRules {
  constructor(
    private readonly sparks: SparksRepository,
    private readonly documents: DocumentsRepository,
  ) {}

  /** The name the builder gives a new test: "Prueba 3", "Test 3". */
  static defaultName(language: Language, existing: number): string {
    return t(language, 'sparks.testName', { number: existing + 1 });
  }

  async create(
    userId: string,
    sparkId: string,
    input: { name: string; documentId?: string | null; waitResponse?: boolean },
  ): Promise<SparkTestRow> {
    const documentId = input.documentId ?? null;
    if (documentId) {
      // A test may point only at a document of this very Spark; anything else is as absent as a missing one.
      if (!(await this.sparks.findOwned(userId, sparkId))) throw DomainError.notFound();
      const document = await this.documents.findOwned(userId, sparkId, documentId);
      if (!document) throw new DomainError({ code: 'NOT_FOUND', field: 'params.documentId' });
    }
    const result = await this.sparks.addTest(
      userId,
      sparkId,
      { name: input.name, params: { documentId, waitResponse: input.waitResponse ?? true } },
      MAX_TESTS_PER_SPARK,
    );
    if (result === 'not-found') throw DomainError.notFound();
    if (result === 'full') throw DomainError.invalid('TESTS_LIMIT');
    return result;
  }
}
