import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  accountDeletedSchema,
  accountExportQueuedSchema,
  deleteAccountSchema,
  deletionCodeSentSchema,
  deletionMethodSchema,
  exportDownloadQuery,
  exportIdParams,
  privacyPolicySchema,
  updateProfileSchema,
  userProfileSchema,
} from '@sparks/contracts';
import type { AppConfig } from '@sparks/core';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { CONFIG } from '@sparks/nest';
import { AllowInactive, CurrentUser, Public, type AuthUser } from '../auth/public.decorator';
import { RateLimiter } from '../auth/rate-limiter.service';
import { RawResponse } from '../common/envelope.interceptor';
import { ApiZodBody, ApiZodQuery, ApiZodResponse, ApiZodWrittenResponse, ZodPipe } from '../common/zod';
import { AccountDeletionService } from './account-deletion.service';
import { AccountExportService } from './account-export.service';
import { AccountsService } from './accounts.service';

/** The zip of an export, answered as a file (documented here: it has no `{ data }` envelope). */
const ApiZipFile = () =>
  ApiResponse({
    status: 200,
    description: 'The zip file (application/zip, as an attachment)',
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  });

@ApiTags('account')
@ApiBearerAuth()
@Controller('account')
export class AccountController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly exports: AccountExportService,
    private readonly deletion: AccountDeletionService,
    private readonly limits: RateLimiter,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('profile')
  @ApiOperation({ summary: 'The signed-in user with its first tenant (plan, limits, usage, trial)' })
  @ApiZodResponse(userProfileSchema)
  profile(@CurrentUser() user: AuthUser) {
    return this.accounts.profile(user.id);
  }

  @Patch('profile')
  @AllowInactive()
  @ApiOperation({
    summary:
      'Change first name, last name, language, time zone (IANA, e.g. Europe/Madrid; 400 TIME_ZONE_INVALID) and the ' +
      'weekly digest e-mail (weeklyDigest)',
  })
  @ApiZodBody(updateProfileSchema)
  @ApiZodResponse(userProfileSchema)
  update(
    @CurrentUser() user: AuthUser,
    @Body(new ZodPipe(updateProfileSchema)) body: z.output<typeof updateProfileSchema>,
  ) {
    return this.accounts.update(user.id, body);
  }

  @Get('export')
  @RawResponse()
  @ApiOperation({
    summary:
      'Everything of the account as a zip (200, with a README of its layout); an account larger than ' +
      'EXPORT_INLINE_MAX_BYTES answers 202 { status: "queued", exportId, email, linkDays }: the worker builds it ' +
      'and e-mails a link',
  })
  @ApiProduces('application/zip', 'application/json')
  @ApiZipFile()
  @ApiZodWrittenResponse(accountExportQueuedSchema, { status: 202 })
  async export(@CurrentUser() user: AuthUser, @Req() req: Request, @Res() res: Response) {
    await this.limits.perMinute('account-export', [
      { name: 'user', key: user.id, max: 5 },
      { name: 'ip', key: req.ip ?? '-', max: 20 },
    ]);
    await this.exports.export(user.id, res);
  }

  @Get('exports/:exportId/download')
  @Public()
  @RawResponse()
  @ApiOperation({
    summary:
      "The e-mailed link to an export the worker built: the zip while the link's secret matches and it lives " +
      '(7 days); 404 EXPORT_LINK_INVALID otherwise',
  })
  @ApiZodQuery(exportDownloadQuery)
  @ApiProduces('application/zip')
  @ApiZipFile()
  async download(
    @Param(new ZodPipe(exportIdParams)) p: z.output<typeof exportIdParams>,
    @Query(new ZodPipe(exportDownloadQuery)) q: z.output<typeof exportDownloadQuery>,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    await this.limits.perMinute('export-download', [{ name: 'ip', key: req.ip ?? '-', max: 30 }]);
    await this.exports.download(p.exportId, q.token, res);
  }

  @Get('deletion')
  @ApiOperation({ summary: 'How the deletion is confirmed: { method: "password" | "code" } (code: Google-only)' })
  @ApiZodResponse(deletionMethodSchema)
  deletionMethod(@CurrentUser() user: AuthUser) {
    return this.deletion.method(user.id);
  }

  @Post('deletion-code')
  @HttpCode(200)
  @AllowInactive()
  @ApiOperation({
    summary:
      'E-mails a code that confirms the deletion of an account that signs in only with Google (10 min; ' +
      '409 DELETION_NEEDS_PASSWORD for one with a password)',
  })
  @ApiZodResponse(deletionCodeSentSchema)
  deletionCode(@CurrentUser() user: AuthUser, @Req() req: Request) {
    return this.deletion.sendCode(user.id, req.ip ?? '-');
  }

  @Delete()
  @AllowInactive()
  @ApiOperation({
    summary:
      'Deletes the account and everything it owns, cancels a paid subscription and ends every session. Body: ' +
      '{ confirmation: the e-mail address, password } or { confirmation, code } (Google-only accounts)',
  })
  @ApiZodBody(deleteAccountSchema)
  @ApiZodResponse(accountDeletedSchema)
  remove(
    @CurrentUser() user: AuthUser,
    @Body(new ZodPipe(deleteAccountSchema)) body: z.output<typeof deleteAccountSchema>,
    @Req() req: Request,
  ) {
    return this.deletion.delete(user.id, body, req.ip ?? '-');
  }

  @Get('privacy-policy')
  @Public()
  @ApiOperation({
    summary: "Where the privacy policy is: { url } (the operator's PRIVACY_POLICY_URL), or null: /privacy",
  })
  @ApiZodResponse(privacyPolicySchema)
  privacyPolicy() {
    return { url: this.config.PRIVACY_POLICY_URL ?? null };
  }
}
