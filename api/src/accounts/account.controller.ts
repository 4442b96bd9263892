import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { updateProfileSchema, userProfileSchema } from '@sparks/contracts';
import type { z } from 'zod';
import { AllowInactive, CurrentUser, type AuthUser } from '../auth/public.decorator';
import { ApiZodBody, ApiZodResponse, ZodPipe } from '../common/zod';
import { AccountsService } from './accounts.service';

@ApiTags('account')
@ApiBearerAuth()
@Controller('account')
export class AccountController {
  constructor(private readonly accounts: AccountsService) {}

  @Get('profile')
  @ApiOperation({ summary: 'The signed-in user with its first tenant (plan, limits, usage, trial)' })
  @ApiZodResponse(userProfileSchema)
  profile(@CurrentUser() user: AuthUser) {
    return this.accounts.profile(user.id);
  }

  @Patch('profile')
  @AllowInactive()
  @ApiOperation({ summary: 'Change first name, last name and language' })
  @ApiZodBody(updateProfileSchema)
  @ApiZodResponse(userProfileSchema)
  update(
    @CurrentUser() user: AuthUser,
    @Body(new ZodPipe(updateProfileSchema)) body: z.output<typeof updateProfileSchema>,
  ) {
    return this.accounts.update(user.id, body);
  }
}
