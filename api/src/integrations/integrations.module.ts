import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import type { AppConfig } from '@sparks/core';
import { CONFIG } from '@sparks/nest';
import { jwtOptions } from '../auth/jwt-options';
import { SparksModule } from '../sparks/sparks.module';
import { IntegrationsController } from './integrations.controller';
import { IntegrationsService } from './integrations.service';
import { MicrosoftService } from './microsoft.service';

/** Document sharing (issue 20): Spark connections to SharePoint and OneDrive through Microsoft Graph. */
@Module({
  imports: [
    SparksModule,
    JwtModule.registerAsync({
      inject: [CONFIG],
      useFactory: (config: AppConfig) => jwtOptions(config.JWT_SECRET, 'integration-state'),
    }),
  ],
  controllers: [IntegrationsController],
  providers: [IntegrationsService, MicrosoftService],
  exports: [IntegrationsService, MicrosoftService],
})
export class IntegrationsModule {}
