import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  AccountsRepository,
  AdminRepository,
  BillingRepository,
  DeployRepository,
  IntegrationsRepository,
  ObjectivesRepository,
  SearchRepository,
  SparksRepository,
} from '@sparks/db';
import { DocumentIntake, PlanGates, SparkRules, SparkTestRules } from '@sparks/domain';
import type { Flow, FlowPorts, LlmProvider } from '@sparks/engine';
import type { MicrosoftGraph } from '@sparks/knowledge';
import type { JobProducer } from '@sparks/queues';
import { LLM } from '../infra/tokens';
import { INGEST_PRODUCER } from '../ingestion/tokens';
import { MICROSOFT } from '../integrations/tokens';
import { flowPorts } from './flow-ports';
import type { PortDeps } from './scope';

/**
 * What the flow engine's ports work with (`PortDeps`: repositories, the domain's rules, the model, SharePoint), by
 * DI, in one place: the reply job asks it for the ports of one conversation.
 */
@Injectable()
export class FlowPortsFactory {
  /** The warnings keep the reply job's context, as when the job built the ports itself. */
  private readonly logger = new Logger('ReplyJob');
  private readonly deps: PortDeps;

  constructor(
    accounts: AccountsRepository,
    sparks: SparksRepository,
    objectives: ObjectivesRepository,
    admin: AdminRepository,
    billing: BillingRepository,
    deploy: DeployRepository,
    search: SearchRepository,
    sparkRules: SparkRules,
    testRules: SparkTestRules,
    @Inject(LLM) llm: LlmProvider | null,
    integrations: IntegrationsRepository,
    intake: DocumentIntake,
    plans: PlanGates,
    @Inject(MICROSOFT) microsoft: MicrosoftGraph,
    @Inject(INGEST_PRODUCER) producer: JobProducer,
  ) {
    this.deps = {
      accounts,
      sparks,
      objectives,
      admin,
      billing,
      deploy,
      sparkRules,
      testRules,
      help: { plans: () => billing.plans(), search },
      llm: llm ?? undefined,
      onLlmError: (err) =>
        this.logger.warn(`language model failed, the rules or the template stand in: ${String(err)}`),
      sharing: { integrations, intake, plans, microsoft, producer },
    };
  }

  /** The ports of one conversation: its user, its flow and (maybe) its Spark. */
  for(userId: string, flow: Flow, sparkId: string | null): FlowPorts {
    return flowPorts(this.deps, userId, flow, sparkId);
  }
}
