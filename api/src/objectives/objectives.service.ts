import { Injectable } from '@nestjs/common';
import {
  objectivesKey,
  objectivesScope,
  type ObjectiveGroupView,
  type ObjectivesMeta,
  type ObjectivesScope,
} from '@sparks/contracts';
import { DomainError, texts, type Language } from '@sparks/core';
import { DeployRepository, ObjectivesRepository } from '@sparks/db';
import { FLOWS, objectivesOf, withSparkState, type Flow, type StepStatus } from '@sparks/engine';
import { SparksService } from '../sparks/sparks.service';

/** The objectives panel: the flows define the groups and steps; the database holds the statuses. */
@Injectable()
export class ObjectivesService {
  constructor(
    private readonly objectives: ObjectivesRepository,
    private readonly sparks: SparksService,
    private readonly deploy: DeployRepository,
  ) {}

  /** The statuses shown: the stored ones and what the Spark's state completes (`withSparkState`, the worker's rule too). */
  private async statuses(scope: ObjectivesScope, flow: Flow, stored: Record<string, StepStatus>) {
    if (scope.kind !== 'spark') return stored;
    return withSparkState(flow, stored, { published: !!(await this.deploy.findBySpark(scope.sparkId)) });
  }

  private flowFor(scope: ObjectivesScope): Flow | undefined {
    const kind = scope.kind === 'page' ? scope.page : 'spark';
    return FLOWS.find((f) => f.objectivesKey === kind);
  }

  /** Which objectives the key names (`objectivesScope`, one rule with the web and the worker), checked. */
  private async resolve(userId: string, rawKey: string) {
    const scope = objectivesScope(rawKey);
    const key = objectivesKey(scope);
    if (scope.kind === 'page') return { scope, key, title: texts(`objectives.pageTitles.${scope.page}`) };
    const spark = await this.sparks.owned(userId, scope.sparkId);
    return { scope, key, title: { es: spark.name, en: spark.name } };
  }

  async list(
    userId: string,
    rawKey: string,
    language: Language,
  ): Promise<{ items: ObjectiveGroupView[]; meta: ObjectivesMeta }> {
    const { scope, key, title } = await this.resolve(userId, rawKey);
    const flow = this.flowFor(scope);
    const row = await this.objectives.find(userId, key);
    const { objectives, progress } = flow
      ? objectivesOf(flow, await this.statuses(scope, flow, row?.statuses ?? {}), language)
      : { objectives: [], progress: 0 };
    return {
      items: objectives,
      meta: { progress, isCompleted: objectives.length > 0 && progress === 100, title: title[language], key },
    };
  }

  async update(userId: string, rawKey: string, stepId: string, status: StepStatus, language: Language) {
    const { scope, key } = await this.resolve(userId, rawKey);
    const flow = this.flowFor(scope);
    const step = flow?.steps.find((s) => s.id === stepId && s.objective);
    if (!flow || !step) throw DomainError.invalid('INVALID_PARAMS', 'stepId');
    const row = await this.objectives.setStatus(
      userId,
      key,
      flow.name,
      stepId,
      status,
      scope.kind === 'spark' ? scope.sparkId : null,
    );
    const view = objectivesOf(flow, await this.statuses(scope, flow, row.statuses), language);
    await this.objectives.setCompleted(row.id, view.progress === 100);
    return this.list(userId, rawKey, language);
  }
}
