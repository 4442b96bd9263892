import { Injectable } from '@nestjs/common';
import type { CreateSparkRequest, SparkView } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import { SparksRepository, type SparkRow } from '@sparks/db';
import { SparkRules } from '@sparks/domain';
import { DocumentsService } from '../knowledge/documents.service';
import { toSparkView } from './sparks.view';

export interface Page<T> {
  items: T[];
  meta: { total: number; page: number; limit: number };
}

@Injectable()
export class SparksService {
  constructor(
    private readonly sparks: SparksRepository,
    private readonly rules: SparkRules,
    private readonly documents: DocumentsService,
  ) {}

  /** The owner's Spark, or 404 — never a 403 that would confirm another user's Spark exists. */
  owned(userId: string, sparkId: string): Promise<SparkRow> {
    return this.rules.owned(userId, sparkId);
  }

  async create(userId: string, input: CreateSparkRequest): Promise<SparkView> {
    const spark = await this.rules.create(userId, {
      name: input.name,
      language: input.options?.language,
      options: { initialMessage: input.options?.initialMessage || undefined },
    });
    return toSparkView(spark);
  }

  async list(userId: string, q: { page: number; limit: number; pinned?: boolean }): Promise<Page<SparkView>> {
    const { rows, total } = await this.sparks.list(userId, {
      pinned: q.pinned,
      offset: (q.page - 1) * q.limit,
      limit: q.limit,
    });
    return { items: rows.map(toSparkView), meta: { total, page: q.page, limit: q.limit } };
  }

  async get(userId: string, sparkId: string): Promise<SparkView> {
    return toSparkView(await this.owned(userId, sparkId));
  }

  async update(userId: string, sparkId: string, patch: { name?: string; pin?: boolean }): Promise<SparkView> {
    return toSparkView(await this.rules.update(userId, sparkId, patch));
  }

  async remove(userId: string, sparkId: string): Promise<{ deleted: true }> {
    await this.owned(userId, sparkId);
    // Stored files first: once the Spark's rows are gone nothing points at them any more.
    await this.documents.removeAllOfSpark(userId, sparkId);
    if (!(await this.sparks.delete(userId, sparkId))) throw DomainError.notFound();
    return { deleted: true };
  }
}
