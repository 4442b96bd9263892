import { withSparkState, type ObjectivesPort, type StepStatus } from '@sparks/engine';
import { objectivesKeyOf, type Scope } from './scope';

/** The flow's objective steps, per Spark or per page. */
export class ObjectivesPortImpl implements ObjectivesPort {
  constructor(private readonly scope: Scope) {}

  async status(stepId: string): Promise<StepStatus | undefined> {
    const { deps, userId, flow, sparkId } = this.scope;
    const key = objectivesKeyOf(this.scope);
    if (!key) return undefined;
    const stored = (await deps.objectives.find(userId, key))?.statuses ?? {};
    // What the Spark's state completes ("Publish your Spark" while published): the api's rule (`withSparkState`).
    const state =
      flow.objectivesKey === 'spark' && sparkId ? { published: !!(await deps.deploy.findBySpark(sparkId)) } : undefined;
    return withSparkState(flow, stored, state)[stepId];
  }

  async setStatus(stepId: string, status: StepStatus): Promise<void> {
    const { deps, userId, flow, sparkId } = this.scope;
    const key = objectivesKeyOf(this.scope);
    if (!key) return;
    await deps.objectives.setStatus(
      userId,
      key,
      flow.name,
      stepId,
      status,
      flow.objectivesKey === 'spark' ? sparkId : null,
    );
  }
}
