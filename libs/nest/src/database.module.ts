import { Global, Inject, Module, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import {
  AccountDataRepository,
  AccountsRepository,
  AdminRepository,
  AnalyticsRepository,
  BillingRepository,
  CheckoutRepository,
  ChecksRepository,
  ConversationsRepository,
  createDb,
  DeployRepository,
  DocumentsRepository,
  EmailsRepository,
  FeedbackRepository,
  IntegrationsRepository,
  ObjectivesRepository,
  PrivacyRepository,
  SearchRepository,
  SparksRepository,
  StripeLinkRepository,
  UnansweredRepository,
  UsageRepository,
  type DbHandle,
} from '@sparks/db';
import { CONFIG, DB } from './tokens';

/** Every repository of `@sparks/db`, each built once per process on the one pool. */
export const REPOSITORIES = [
  AccountDataRepository,
  AccountsRepository,
  AdminRepository,
  AnalyticsRepository,
  BillingRepository,
  CheckoutRepository,
  ChecksRepository,
  ConversationsRepository,
  DeployRepository,
  DocumentsRepository,
  EmailsRepository,
  FeedbackRepository,
  IntegrationsRepository,
  ObjectivesRepository,
  PrivacyRepository,
  SearchRepository,
  SparksRepository,
  StripeLinkRepository,
  UnansweredRepository,
  UsageRepository,
] as const;

const repositoryProviders: Provider[] = REPOSITORIES.map((Repository) => ({
  provide: Repository,
  inject: [DB],
  useFactory: (h: DbHandle) => new Repository(h.db),
}));

/**
 * The database of a process (the api and the worker both import it): the pool (`DB`) and the
 * repositories, global so that any module may inject a repository without building its own. Needs
 * `CONFIG` (see `ConfigModule`). The pool closes at shutdown, after the modules that use it (Nest
 * shuts global modules down last).
 */
@Global()
@Module({
  providers: [
    {
      provide: DB,
      inject: [CONFIG],
      useFactory: (config: AppConfig) => createDb(config.DATABASE_URL, config.DATABASE_POOL_MAX),
    },
    ...repositoryProviders,
  ],
  exports: [DB, ...REPOSITORIES],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DB) private readonly handle: DbHandle) {}

  async onApplicationShutdown(): Promise<void> {
    await this.handle.close();
  }
}
