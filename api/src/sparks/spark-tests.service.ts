import { Injectable } from '@nestjs/common';
import { MAX_TESTS_PER_SPARK, type SparkTestView } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import { DocumentsRepository, SparksRepository, type SparkTestRow } from '@sparks/db';
import { SparksService } from './sparks.service';
import { toTestView } from './sparks.view';

@Injectable()
export class SparkTestsService {
  constructor(
    private readonly sparks: SparksRepository,
    private readonly sparkService: SparksService,
    private readonly documents: DocumentsRepository,
  ) {}

  async owned(userId: string, sparkId: string, testId: string): Promise<SparkTestRow> {
    const test = await this.sparks.findTest(userId, sparkId, testId);
    if (!test) throw DomainError.notFound();
    return test;
  }

  async create(
    userId: string,
    sparkId: string,
    input: { name: string; params?: { documentId?: string | null; waitResponse?: boolean } },
  ): Promise<SparkTestView> {
    const documentId = input.params?.documentId ?? null;
    if (documentId) {
      // A test may point only at a document of this very Spark; anything else is as absent as a missing one.
      await this.sparkService.owned(userId, sparkId);
      const document = await this.documents.findOwned(userId, sparkId, documentId);
      if (!document) throw new DomainError(404, { code: 'NOT_FOUND', field: 'params.documentId' });
    }
    const result = await this.sparks.addTest(
      userId,
      sparkId,
      { name: input.name, params: { documentId, waitResponse: input.params?.waitResponse ?? true } },
      MAX_TESTS_PER_SPARK,
    );
    if (result === 'not-found') throw DomainError.notFound();
    if (result === 'full') throw DomainError.badRequest('TESTS_LIMIT');
    return toTestView(result);
  }

  async list(userId: string, sparkId: string): Promise<SparkTestView[]> {
    await this.sparkService.owned(userId, sparkId);
    return (await this.sparks.listTests(userId, sparkId)).map(toTestView);
  }

  async get(userId: string, sparkId: string, testId: string): Promise<SparkTestView> {
    return toTestView(await this.owned(userId, sparkId, testId));
  }

  async rename(userId: string, sparkId: string, testId: string, name: string): Promise<SparkTestView> {
    const row = await this.sparks.renameTest(userId, sparkId, testId, name);
    if (!row) throw DomainError.notFound();
    return toTestView(row);
  }

  async remove(userId: string, sparkId: string, testId: string): Promise<{ deleted: true }> {
    if (!(await this.sparks.deleteTest(userId, sparkId, testId))) throw DomainError.notFound();
    return { deleted: true };
  }

  async reportError(userId: string, sparkId: string, testId: string, error: string) {
    await this.owned(userId, sparkId, testId);
    const row = await this.sparks.recordTestError(userId, testId, error);
    return { _id: row.id, testId, error: row.error, createdAt: row.createdAt.toISOString() };
  }
}
