import { Injectable } from '@nestjs/common';
import type { CreateSparkRequest, SparkView } from '@sparks/contracts';
import { DomainError, newSparkValues } from '@sparks/core';
import { AccountsRepository, SparksRepository, type SparkRow } from '@sparks/db';
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
    private readonly accounts: AccountsRepository,
    private readonly documents: DocumentsService,
  ) {}

  /** The owner's Spark, or 404 — never a 403 that would confirm another user's Spark exists. */
  async owned(userId: string, sparkId: string): Promise<SparkRow> {
    const spark = await this.sparks.findOwned(userId, sparkId);
    if (!spark) throw DomainError.notFound();
    return spark;
  }

  async create(userId: string, input: CreateSparkRequest): Promise<SparkView> {
    const user = await this.accounts.findUserById(userId);
    const language = input.options?.language ?? user?.language ?? 'es';
    const values = newSparkValues(language, input.name);
    if (input.options?.initialMessage) values.options.initialMessage = input.options.initialMessage;
    const spark = await this.sparks.create(userId, values);
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
    if (patch.name !== undefined && patch.name.trim() === '') throw DomainError.badRequest('BLANK_NAME', 'name');
    const row = await this.sparks.update(userId, sparkId, patch);
    if (!row) throw DomainError.notFound();
    return toSparkView(row);
  }

  async remove(userId: string, sparkId: string): Promise<{ deleted: true }> {
    await this.owned(userId, sparkId);
    // Stored files first: once the Spark's rows are gone nothing points at them any more.
    await this.documents.removeAllOfSpark(userId, sparkId);
    if (!(await this.sparks.delete(userId, sparkId))) throw DomainError.notFound();
    return { deleted: true };
  }
}
