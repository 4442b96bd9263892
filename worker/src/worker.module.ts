import { Logger, Module } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { SearchRepository } from '@sparks/db';
import { CONFIG, ConfigModule, DatabaseModule, DomainModule, InfraModule } from '@sparks/nest';
import { AnswerEngine, FLOWS, FlowEngine, LlmProvider } from '@sparks/engine';
import { UsageMeterJob } from './billing/usage-meter.job';
import { UsageRecordJob } from './billing/usage-record.job';
import { UsageSweep } from './billing/usage-sweep.service';
import { CheckAnswersJob } from './checks/check-answers.job';
import { ConsumersService } from './consumers.service';
import { DigestSweepJob } from './digest/digest-sweep.job';
import { EmailSweep } from './email/email-sweep.service';
import { createMailer, MAILER } from './email/mailer';
import { SendEmailJob } from './email/send-email.job';
import { INGESTION_PROVIDERS } from './ingestion/ingestion.providers';
import { INTEGRATION_PROVIDERS } from './integrations/integrations.providers';
import { PRIVACY_PROVIDERS } from './privacy/privacy.providers';
import { FlowPortsFactory } from './flows/flow-ports.factory';
import { ConversationEvents } from './reply/conversation-events';
import { ReplyJob } from './reply/reply.job';
import { LLM } from './infra/tokens';

/**
 * The worker: queue consumers on the configuration, database and infrastructure modules shared with the api
 * (`@sparks/nest`).
 */
@Module({
  // Commands wait for Redis to come back: BullMQ's blocking reads need it.
  imports: [ConfigModule, DatabaseModule, DomainModule, InfraModule.forRoot({ redis: 'patient' })],
  providers: [
    { provide: MAILER, inject: [CONFIG], useFactory: createMailer },
    {
      provide: LLM,
      inject: [CONFIG],
      useFactory: (c: AppConfig) =>
        c.LLM_ENABLED
          ? new LlmProvider({
              baseURL: c.LLM_BASE_URL,
              apiKey: c.LLM_API_KEY,
              model: c.LLM_MODEL,
              timeoutMs: c.LLM_TIMEOUT_MS,
            })
          : null,
    },
    {
      provide: AnswerEngine,
      inject: [SearchRepository, LLM],
      useFactory: (search: SearchRepository, llm: LlmProvider | null) =>
        new AnswerEngine(search, llm ?? undefined, (err) =>
          new Logger(AnswerEngine.name).warn(`language model failed, answered offline: ${String(err)}`),
        ),
    },
    { provide: FlowEngine, useFactory: () => new FlowEngine(FLOWS) },
    UsageRecordJob,
    UsageMeterJob,
    UsageSweep,
    SendEmailJob,
    EmailSweep,
    FlowPortsFactory,
    ConversationEvents,
    ReplyJob,
    CheckAnswersJob,
    DigestSweepJob,
    ...INGESTION_PROVIDERS,
    ...INTEGRATION_PROVIDERS,
    ...PRIVACY_PROVIDERS,
    ConsumersService,
  ],
})
export class WorkerModule {}
