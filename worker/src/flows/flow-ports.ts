import { helpAnswer, type Flow, type FlowPorts } from '@sparks/engine';
import { AccountPortImpl } from './account-port';
import { DeployPortImpl } from './deploy-port';
import { ModelPortImpl } from './model-port';
import { ObjectivesPortImpl } from './objectives-port';
import type { PortDeps, Scope } from './scope';
import { SharingPortsImpl } from './sharing-ports';
import { SparkPortImpl, TestsPortImpl } from './spark-ports';

export type { PortDeps };

/** The flow engine's view of the database, for one user, one flow and (maybe) one Spark: one port per concern. */
export function flowPorts(deps: PortDeps, userId: string, flow: Flow, sparkId: string | null): FlowPorts {
  const scope: Scope = { deps, userId, flow, sparkId };
  return {
    account: new AccountPortImpl(scope),
    sparks: new SparkPortImpl(scope),
    tests: new TestsPortImpl(scope),
    objectives: new ObjectivesPortImpl(scope),
    deploy: new DeployPortImpl(scope),
    help: { answer: (question, language) => helpAnswer(deps.help, question, language) },
    model: new ModelPortImpl(deps),
    /** The Spark's Microsoft 365 connection, for the builder chat's file browser (issue 20). */
    get sharing() {
      return deps.sharing && scope.sparkId && flow.objectivesKey === 'spark'
        ? new SharingPortsImpl(deps.sharing, userId, scope.sparkId)
        : undefined;
    },
  };
}
