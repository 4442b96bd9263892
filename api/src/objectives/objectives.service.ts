import { Injectable } from '@nestjs/common';
import type { ObjectiveGroupView, ObjectivesMeta } from '@sparks/contracts';
import { DomainError, type Language } from '@sparks/core';
import { ObjectivesRepository } from '@sparks/db';
import { FLOWS, objectivesOf, type Flow, type StepStatus } from '@sparks/engine';
import { SparksService } from '../sparks/sparks.service';

const PAGE_TITLES: Record<string, Record<Language, string>> = {
  deploy: { es: 'Despliegue', en: 'Deploy' },
  profile: { es: 'Perfil', en: 'Profile' },
  billing: { es: 'Facturación', en: 'Billing' },
};

/** The objectives panel: the flows define the groups and steps; the database holds the statuses. */
@Injectable()
export class ObjectivesService {
  constructor(
    private readonly objectives: ObjectivesRepository,
    private readonly sparks: SparksService,
  ) {}

  private flowFor(key: string): Flow | undefined {
    const kind = key === 'deploy' || key === 'profile' || key === 'billing' ? key : 'spark';
    return FLOWS.find((f) => f.objectivesKey === kind);
  }

  private async resolve(userId: string, key: string): Promise<{ key: string; title: Record<Language, string> }> {
    const real = key === 'profile-menu' ? 'profile' : key;
    if (PAGE_TITLES[real]) return { key: real, title: PAGE_TITLES[real] };
    const spark = await this.sparks.owned(userId, real);
    return { key: real, title: { es: spark.name, en: spark.name } };
  }

  async list(
    userId: string,
    rawKey: string,
    language: Language,
  ): Promise<{ items: ObjectiveGroupView[]; meta: ObjectivesMeta }> {
    const { key, title } = await this.resolve(userId, rawKey);
    const flow = this.flowFor(key);
    const row = await this.objectives.find(userId, key);
    const { objectives, progress } = flow
      ? objectivesOf(flow, row?.statuses ?? {}, language)
      : { objectives: [], progress: 0 };
    return {
      items: objectives,
      meta: { progress, isCompleted: objectives.length > 0 && progress === 100, title: title[language], key },
    };
  }

  async update(userId: string, rawKey: string, stepId: string, status: StepStatus, language: Language) {
    const { key } = await this.resolve(userId, rawKey);
    const flow = this.flowFor(key);
    const step = flow?.steps.find((s) => s.id === stepId && s.objective);
    if (!flow || !step) throw DomainError.badRequest('INVALID_PARAMS', 'stepId');
    const row = await this.objectives.setStatus(
      userId,
      key,
      flow.name,
      stepId,
      status,
      key === rawKey && !(key in PAGE_TITLES) ? key : null,
    );
    const view = objectivesOf(flow, row.statuses, language);
    await this.objectives.setCompleted(row.id, view.progress === 100);
    return this.list(userId, rawKey, language);
  }
}
