import { Module } from '@nestjs/common';
import { RateLimiter } from '../auth/rate-limiter.service';
import { MailModule } from '../mail/mail.module';
import { AccountController } from './account.controller';
import { AccountDeletionService } from './account-deletion.service';
import { AccountExportService } from './account-export.service';
import { AccountsService } from './accounts.service';

/**
 * The signed-in user's account: GET and PATCH /account/profile, and the owner's rights over their data (issue 30):
 * the export, the deletion, where the privacy policy is.
 */
@Module({
  imports: [MailModule],
  controllers: [AccountController],
  providers: [AccountsService, AccountExportService, AccountDeletionService, RateLimiter],
})
export class AccountsModule {}
