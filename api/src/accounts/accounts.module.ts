import { Module } from '@nestjs/common';
import { AccountController } from './account.controller';
import { AccountsService } from './accounts.service';

/** The signed-in user's account: GET and PATCH /account/profile. */
@Module({
  controllers: [AccountController],
  providers: [AccountsService],
})
export class AccountsModule {}
