import { Injectable } from '@nestjs/common';
import type { SparkTestView, TestVerdict } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import { SparksRepository, type SparkTestRow } from '@sparks/db';
import { SparkTestRules } from '@sparks/domain';
import { SparksService } from './sparks.service';
import { toTestView } from './sparks.view';

@Injectable()
export class SparkTestsService {
  constructor(
    private readonly sparks: SparksRepository,
    private readonly sparkService: SparksService,
    private readonly rules: SparkTestRules,
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
    const test = await this.rules.create(userId, sparkId, {
      name: input.name,
      documentId: input.params?.documentId,
      waitResponse: input.params?.waitResponse,
    });
    return toTestView(test);
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

  /** Removes the test; judged (`verdict`), its conversation with a question stays as the test's transcript. */
  async remove(userId: string, sparkId: string, testId: string, verdict?: TestVerdict): Promise<{ deleted: true }> {
    if (!(await this.sparks.deleteTest(userId, sparkId, testId, verdict))) throw DomainError.notFound();
    return { deleted: true };
  }

  async reportError(userId: string, sparkId: string, testId: string, error: string) {
    await this.owned(userId, sparkId, testId);
    const row = await this.sparks.recordTestError(userId, testId, error);
    return { _id: row.id, testId, error: row.error, createdAt: row.createdAt.toISOString() };
  }
}
