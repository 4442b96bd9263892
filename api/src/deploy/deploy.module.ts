import { Module, RequestMethod, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { CONFIG } from '@sparks/nest';
import { MailModule } from '../mail/mail.module';
import type { AppConfig } from '@sparks/core';
import { AuthModule } from '../auth/auth.module';
import { RateLimiter } from '../auth/rate-limiter.service';
import { ChatModule } from '../chat/chat.module';
import { SparksModule } from '../sparks/sparks.module';
import { DeployController } from './deploy.controller';
import { DeployService } from './deploy.service';
import { WidgetCorsMiddleware } from './widget-cors.middleware';
import { DeploymentCap } from './deployment-cap';
import { RefusedSites } from './refused-sites';
import { WidgetMeter } from './widget-meter';
import { ConnectController, WidgetController } from './widget.controller';
import { WidgetService } from './widget.service';
import { InsightsModule } from '../insights/insights.module';
import { jwtOptions } from '../auth/jwt-options';

@Module({
  imports: [
    AuthModule,
    SparksModule,
    ChatModule,
    InsightsModule,
    MailModule,
    JwtModule.registerAsync({
      inject: [CONFIG],
      useFactory: (config: AppConfig) => jwtOptions(config.JWT_SECRET, 'visitor'),
    }),
  ],
  controllers: [DeployController, WidgetController, ConnectController],
  providers: [DeployService, WidgetService, WidgetMeter, DeploymentCap, RefusedSites, RateLimiter],
  exports: [DeployService],
})
export class DeployModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(WidgetCorsMiddleware).forRoutes({ path: 'public/widgets/{*path}', method: RequestMethod.ALL });
  }
}
