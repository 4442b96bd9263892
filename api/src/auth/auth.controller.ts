import { Body, Controller, Get, Headers, HttpCode, Inject, Next, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiResponse } from '@nestjs/swagger';
import {
  loginSchema,
  logoutSchema,
  refreshSchema,
  registerSchema,
  sendCodeSchema,
  verifyCodeSchema,
  type AuthProviders,
  type SupportContact,
  userProfileSchema,
  codeSentSchema,
  loginTokensSchema,
  refreshedTokensSchema,
  loggedOutSchema,
  authProvidersSchema,
  providerLoginSchema,
  supportContactSchema,
} from '@sparks/contracts';
import type { z } from 'zod';
import { DomainError, type AppConfig } from '@sparks/core';
import type { NextFunction, Request, Response } from 'express';
import { CONFIG } from '@sparks/nest';
import { RawResponse } from '../common/envelope.interceptor';
import { requestLanguage } from '../common/language';
import { ApiZodBody, ZodPipe, ApiZodResponse } from '../common/zod';
import { AuthService, type GoogleProfile, type RequestMeta } from './auth.service';
import { GoogleService } from './google.service';
import { AllowInactive, bearerToken, CurrentUser, Public, type AuthUser } from './public.decorator';
import { TokensService } from './tokens.service';

export const meta = (req: Request): RequestMeta => ({
  ip: req.ip ?? req.socket.remoteAddress ?? 'unknown',
  language: requestLanguage(req),
});

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly tokens: TokensService,
    private readonly google: GoogleService,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Post('register')
  @ApiOperation({ summary: 'Create a user and its first tenant (Free Plan, 15-day trial); e-mails a code' })
  @ApiZodBody(registerSchema)
  @ApiZodResponse(userProfileSchema, { status: 201 })
  register(@Body(new ZodPipe(registerSchema)) body: z.output<typeof registerSchema>, @Req() req: Request) {
    return this.auth.register(body, meta(req));
  }

  @Public()
  @Post('send-code')
  @HttpCode(200)
  @ApiOperation({ summary: 'E-mail a new verification code (once every 30 s)' })
  @ApiZodBody(sendCodeSchema)
  @ApiZodResponse(codeSentSchema)
  sendCode(@Body(new ZodPipe(sendCodeSchema)) body: z.output<typeof sendCodeSchema>, @Req() req: Request) {
    return this.auth.sendCode(body, meta(req));
  }

  @Public()
  @Post('verify-code')
  @HttpCode(200)
  @ApiOperation({ summary: 'Verify the e-mail with its 6-digit code; answers tokens' })
  @ApiZodBody(verifyCodeSchema)
  @ApiZodResponse(loginTokensSchema)
  verifyCode(@Body(new ZodPipe(verifyCodeSchema)) body: z.output<typeof verifyCodeSchema>, @Req() req: Request) {
    return this.auth.verifyCode(body, meta(req));
  }

  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in: { access_token, refresh_Token }' })
  @ApiZodBody(loginSchema)
  @ApiZodResponse(loginTokensSchema)
  login(@Body(new ZodPipe(loginSchema)) body: z.output<typeof loginSchema>, @Req() req: Request) {
    return this.auth.login(body, meta(req));
  }

  @Public()
  @Post('refresh-token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Rotate the refresh token: { access_token, refresh_token }' })
  @ApiZodBody(refreshSchema)
  @ApiZodResponse(refreshedTokensSchema)
  refresh(@Body(new ZodPipe(refreshSchema)) body: z.output<typeof refreshSchema>) {
    return this.tokens.refresh(body.refresh_token);
  }

  @Post('logout')
  @AllowInactive()
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'End every session of the signed-in user' })
  @ApiZodBody(logoutSchema)
  @ApiZodResponse(loggedOutSchema)
  logout(@CurrentUser() user: AuthUser, @Body(new ZodPipe(logoutSchema)) _body: z.output<typeof logoutSchema>) {
    return this.auth.logout(user.id);
  }

  @Public()
  @Get('providers')
  @ApiOperation({ summary: 'Which external sign-in providers this server has configured' })
  @ApiZodResponse(authProvidersSchema)
  providers(): AuthProviders {
    return { google: this.google.enabled };
  }

  @Public()
  @Get('support')
  @ApiOperation({ summary: 'Where users ask for help (SUPPORT_EMAIL): { email }, null when none is configured' })
  @ApiZodResponse(supportContactSchema)
  support(): SupportContact {
    return { email: this.config.SUPPORT_EMAIL ?? null };
  }

  @Public()
  @Get('exchange-token')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Trade the one-time token of a Google sign-in (bearer) for tokens' })
  @ApiZodResponse(loginTokensSchema)
  exchange(@Headers('authorization') authorization?: string) {
    return this.auth.exchange(bearerToken(authorization));
  }

  @Public()
  @Get('service/:provider/login')
  @ApiOperation({ summary: 'Where the browser goes to sign in with a provider: { url }' })
  @ApiZodResponse(providerLoginSchema)
  providerLogin(@Req() req: Request): { url: string } {
    const provider = String(req.params.provider);
    if (provider !== 'google') throw DomainError.notFound();
    if (!this.google.enabled) throw new DomainError({ code: 'GOOGLE_NOT_CONFIGURED' });
    return { url: `${this.config.APP_URL}/api/v1/auth/service/google/start` };
  }

  @Public()
  @Get('service/google/start')
  @RawResponse()
  @ApiOperation({ summary: 'Redirects to Google with a single-use state' })
  @ApiResponse({ status: 302, description: 'Redirects to Google' })
  googleStart(@Req() req: Request, @Res() res: Response, @Next() next: NextFunction): void {
    if (!this.google.enabled) throw new DomainError({ code: 'GOOGLE_NOT_CONFIGURED' });
    this.google.start(req, res, next);
  }

  @Public()
  @Get('service/google/callback')
  @RawResponse()
  @ApiOperation({ summary: 'Google returns here; redirects to the app with a one-time token' })
  @ApiResponse({ status: 302, description: 'Redirects to the app, with `token` or `error` in the query' })
  async googleCallback(@Req() req: Request, @Res() res: Response): Promise<void> {
    const target = new URL('/auth', this.config.APP_URL);
    const profile = this.google.enabled ? await this.google.callback(req, res) : undefined;
    if (res.headersSent) return;
    if (!profile) {
      target.searchParams.set('error', 'google');
    } else {
      const token = await this.auth.googleSignIn(profile as GoogleProfile, requestLanguage(req)).catch(() => undefined);
      target.searchParams.set(token ? 'token' : 'error', token ?? 'google');
    }
    res.redirect(302, target.toString());
  }
}
