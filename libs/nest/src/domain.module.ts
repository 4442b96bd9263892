import { Global, Module } from '@nestjs/common';
import {
  AccountsRepository,
  BillingRepository,
  ConversationsRepository,
  DocumentsRepository,
  SparksRepository,
} from '@sparks/db';
import { DocumentIntake, PlanGates, SparkRules, SparkTestRules } from '@sparks/domain';

/**
 * The product's rules (`@sparks/domain`) over the repositories of `DatabaseModule`, the same for the
 * api's services and the worker's flows.
 */
@Global()
@Module({
  providers: [
    {
      provide: SparkRules,
      inject: [SparksRepository, AccountsRepository],
      useFactory: (sparks: SparksRepository, accounts: AccountsRepository) => new SparkRules(sparks, accounts),
    },
    {
      provide: SparkTestRules,
      inject: [SparksRepository, DocumentsRepository],
      useFactory: (sparks: SparksRepository, documents: DocumentsRepository) => new SparkTestRules(sparks, documents),
    },
    {
      provide: PlanGates,
      inject: [BillingRepository],
      useFactory: (billing: BillingRepository) => new PlanGates(billing),
    },
    {
      provide: DocumentIntake,
      inject: [DocumentsRepository, ConversationsRepository, BillingRepository],
      useFactory: (
        documents: DocumentsRepository,
        conversations: ConversationsRepository,
        billing: BillingRepository,
      ) => new DocumentIntake(documents, conversations, billing),
    },
  ],
  exports: [SparkRules, SparkTestRules, PlanGates, DocumentIntake],
})
export class DomainModule {}
