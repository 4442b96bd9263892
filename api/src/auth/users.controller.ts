import { Body, Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { forgotPasswordSchema, resetPasswordSchema, mailSentSchema, passwordResetSchema } from '@sparks/contracts';
import type { z } from 'zod';
import type { Request } from 'express';
import { ApiZodBody, ZodPipe, ApiZodResponse } from '../common/zod';
import { meta } from './auth.controller';
import { AuthService } from './auth.service';
import { bearerToken, Public } from './public.decorator';

@ApiTags('auth')
@Controller('users')
export class UsersController {
  constructor(private readonly auth: AuthService) {}

  @Public()
  @Post('forgot-password')
  @HttpCode(200)
  @ApiOperation({ summary: 'E-mail a single-use reset link built from APP_URL' })
  @ApiZodBody(forgotPasswordSchema)
  @ApiZodResponse(mailSentSchema)
  forgot(@Body(new ZodPipe(forgotPasswordSchema)) body: z.output<typeof forgotPasswordSchema>, @Req() req: Request) {
    return this.auth.forgotPassword(body, meta(req));
  }

  @Public()
  @Post('reset-password')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Set a new password; the bearer is the token from the reset link. Answers { username }' })
  @ApiZodBody(resetPasswordSchema)
  @ApiZodResponse(passwordResetSchema)
  reset(
    @Headers('authorization') authorization: string | undefined,
    @Body(new ZodPipe(resetPasswordSchema)) body: z.output<typeof resetPasswordSchema>,
    @Req() req: Request,
  ) {
    return this.auth.resetPassword(bearerToken(authorization), body, meta(req));
  }
}
