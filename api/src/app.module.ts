import { Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { ConfigModule, DatabaseModule, DomainModule, InfraModule } from '@sparks/nest';
import { AccountsModule } from './accounts/accounts.module';
import { AdminModule } from './admin/admin.module';
import { AnalyticsModule } from './analytics/analytics.module';
import { AuthModule } from './auth/auth.module';
import { BillingModule } from './billing/billing.module';
import { ChatModule } from './chat/chat.module';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { EnvelopeInterceptor } from './common/envelope.interceptor';
import { DeployModule } from './deploy/deploy.module';
import { DevModule } from './dev/dev.module';
import { HealthModule } from './health/health.module';
import { IntegrationsModule } from './integrations/integrations.module';
import { InsightsModule } from './insights/insights.module';
import { ProducerModule } from './infra/producer.module';
import { KnowledgeModule } from './knowledge/knowledge.module';
import { MailModule } from './mail/mail.module';
import { ObjectivesModule } from './objectives/objectives.module';
import { SparksModule } from './sparks/sparks.module';

@Module({
  imports: [
    ConfigModule,
    DatabaseModule,
    DomainModule,
    // Requests fail fast (503) while Redis is frozen or away instead of hanging.
    InfraModule.forRoot({ redis: 'failFast' }),
    ProducerModule,
    MailModule,
    BillingModule,
    AuthModule,
    AccountsModule,
    SparksModule,
    ObjectivesModule,
    ChatModule,
    KnowledgeModule,
    DeployModule,
    IntegrationsModule,
    InsightsModule,
    AnalyticsModule,
    AdminModule,
    HealthModule,
    DevModule,
  ],
  providers: [
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
  ],
})
export class AppModule {}
