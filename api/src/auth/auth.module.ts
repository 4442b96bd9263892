import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import type { AppConfig } from '@sparks/core';
import { AccountsRepository, type DbHandle } from '@sparks/db';
import { AccountController } from '../accounts/account.controller';
import { AccountsService } from '../accounts/accounts.service';
import { CONFIG, DB } from '../infra/tokens';
import { MailModule } from '../mail/mail.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { EmailDomainService } from './email-domain.service';
import { GoogleService } from './google.service';
import { RateLimiter } from './rate-limiter.service';
import { TokensService } from './tokens.service';
import { UsersController } from './users.controller';

@Module({
  imports: [
    MailModule,
    JwtModule.registerAsync({
      inject: [CONFIG],
      useFactory: (config: AppConfig) => ({ secret: config.JWT_SECRET, signOptions: { algorithm: 'HS256' } }),
    }),
  ],
  controllers: [AuthController, UsersController, AccountController],
  providers: [
    { provide: AccountsRepository, inject: [DB], useFactory: (h: DbHandle) => new AccountsRepository(h.db) },
    AuthService,
    TokensService,
    EmailDomainService,
    RateLimiter,
    GoogleService,
    AccountsService,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [AccountsRepository, TokensService],
})
export class AuthModule {}
