import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import type { AppConfig } from '@sparks/core';
import { CONFIG } from '@sparks/nest';
import { MailModule } from '../mail/mail.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { EmailDomainService } from './email-domain.service';
import { GoogleService } from './google.service';
import { LoginCodes } from './login-codes.service';
import { RateLimiter } from './rate-limiter.service';
import { TokensService } from './tokens.service';
import { UsersController } from './users.controller';
import { jwtOptions } from './jwt-options';

@Module({
  imports: [
    MailModule,
    JwtModule.registerAsync({
      inject: [CONFIG],
      useFactory: (config: AppConfig) => jwtOptions(config.JWT_SECRET, 'access'),
    }),
  ],
  controllers: [AuthController, UsersController],
  providers: [
    AuthService,
    TokensService,
    EmailDomainService,
    RateLimiter,
    LoginCodes,
    GoogleService,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [TokensService],
})
export class AuthModule {}
