import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { loadConfig, type AppConfig } from '@sparks/core';
import {
  AccountsRepository,
  ConversationsRepository,
  createDb,
  EmailsRepository,
  ObjectivesRepository,
  SparksRepository,
  type DbHandle,
} from '@sparks/db';
import { AnswerEngine, FLOWS, FlowEngine } from '@sparks/engine';
import { createRedis } from '@sparks/queues';
import type { Redis } from 'ioredis';
import { ConsumersService } from './consumers.service';
import { createMailer, MAILER } from './email/mailer';
import { SendEmailJob } from './email/send-email.job';
import { INGESTION_PROVIDERS } from './ingestion/ingestion.providers';
import { ReplyJob } from './reply/reply.job';
import { CONFIG, DB, REDIS } from './infra/tokens';

@Module({
  providers: [
    { provide: CONFIG, useFactory: () => loadConfig() },
    { provide: DB, inject: [CONFIG], useFactory: (c: AppConfig) => createDb(c.DATABASE_URL, c.DATABASE_POOL_MAX) },
    { provide: REDIS, inject: [CONFIG], useFactory: (c: AppConfig) => createRedis(c.REDIS_URL) },
    { provide: EmailsRepository, inject: [DB], useFactory: (h: DbHandle) => new EmailsRepository(h.db) },
    { provide: MAILER, inject: [CONFIG], useFactory: createMailer },
    { provide: AccountsRepository, inject: [DB], useFactory: (h: DbHandle) => new AccountsRepository(h.db) },
    { provide: SparksRepository, inject: [DB], useFactory: (h: DbHandle) => new SparksRepository(h.db) },
    { provide: ConversationsRepository, inject: [DB], useFactory: (h: DbHandle) => new ConversationsRepository(h.db) },
    {
      provide: AnswerEngine,
      inject: [DB, CONFIG],
      useFactory: (h: DbHandle, c: AppConfig) =>
        new AnswerEngine(
          h.db,
          c.LLM_ENABLED
            ? { baseURL: c.LLM_BASE_URL, apiKey: c.LLM_API_KEY, model: c.LLM_MODEL, timeoutMs: c.LLM_TIMEOUT_MS }
            : undefined,
        ),
    },
    { provide: ObjectivesRepository, inject: [DB], useFactory: (h: DbHandle) => new ObjectivesRepository(h.db) },
    { provide: FlowEngine, useFactory: () => new FlowEngine(FLOWS) },
    SendEmailJob,
    ReplyJob,
    ...INGESTION_PROVIDERS,
    ConsumersService,
  ],
})
export class WorkerModule implements OnApplicationShutdown {
  constructor(
    @Inject(DB) private readonly dbHandle: DbHandle,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.redis.disconnect();
    await this.dbHandle.close();
  }
}
