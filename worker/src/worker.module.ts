import { Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { SearchRepository, systemClock } from '@sparks/db';
import { ConfigModule, createStripeClient, DatabaseModule, DomainModule } from '@sparks/nest';
import { AnswerEngine, FLOWS, FlowEngine, LlmProvider } from '@sparks/engine';
import { createRedis } from '@sparks/queues';
import { CLOCK, STRIPE } from './billing/tokens';
import { UsageMeterJob } from './billing/usage-meter.job';
import { UsageRecordJob } from './billing/usage-record.job';
import { UsageSweep } from './billing/usage-sweep.service';
import type { Redis } from 'ioredis';
import { ConsumersService } from './consumers.service';
import { EmailSweep } from './email/email-sweep.service';
import { createMailer, MAILER } from './email/mailer';
import { SendEmailJob } from './email/send-email.job';
import { INGESTION_PROVIDERS } from './ingestion/ingestion.providers';
import { INTEGRATION_PROVIDERS } from './integrations/integrations.providers';
import { PRIVACY_PROVIDERS } from './privacy/privacy.providers';
import { ReplyJob } from './reply/reply.job';
import { CONFIG, LLM, REDIS } from './infra/tokens';

/** The worker: queue consumers on the shared configuration and database modules (`@sparks/nest`). */
@Module({
  imports: [ConfigModule, DatabaseModule, DomainModule],
  providers: [
    { provide: REDIS, inject: [CONFIG], useFactory: (c: AppConfig) => createRedis(c.REDIS_URL) },
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
    { provide: CLOCK, useValue: systemClock },
    { provide: STRIPE, inject: [CONFIG], useFactory: (c: AppConfig) => createStripeClient(c) },
    UsageRecordJob,
    UsageMeterJob,
    UsageSweep,
    SendEmailJob,
    EmailSweep,
    ReplyJob,
    ...INGESTION_PROVIDERS,
    ...INTEGRATION_PROVIDERS,
    ...PRIVACY_PROVIDERS,
    ConsumersService,
  ],
})
export class WorkerModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
