import { Controller, Delete, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  authorizeQuery,
  authorizeResultSchema,
  integrationDisconnectedSchema,
  integrationParams,
  integrationsViewSchema,
  sparkIdParams,
} from '@sparks/contracts';
import { parse as parseCookies } from 'cookie';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { CurrentUser, Public, type AuthUser } from '../auth/public.decorator';
import { RawResponse } from '../common/envelope.interceptor';
import { ApiZodQuery, ApiZodResponse, ZodPipe } from '../common/zod';
import { CONNECT_COOKIE, IntegrationsService } from './integrations.service';

type Params = z.output<typeof integrationParams>;

@ApiTags('integrations')
@Controller()
export class IntegrationsController {
  constructor(private readonly integrations: IntegrationsService) {}

  @Get('sparks/:sparkId/integrations')
  @ApiBearerAuth()
  @ApiOperation({ summary: "Whether document sharing is set up on this server, and the Spark's connections" })
  @ApiZodResponse(integrationsViewSchema)
  view(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: z.output<typeof sparkIdParams>) {
    return this.integrations.view(user.id, p.sparkId);
  }

  @Get('sparks/:sparkId/integrations/:provider/authorize')
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Where to sign in to connect the Spark (docs/product.md §7): { authUrl }, opened in a new tab',
    description:
      'Provider `microsoft` (SharePoint and OneDrive through Microsoft Graph); `service` is `sharepoint` (default) ' +
      'or `onedrive`. 402 DOCUMENT_SHARING_PLAN unless the plan is zaphire, 503 MICROSOFT_NOT_CONFIGURED when ' +
      'this server has no Microsoft app. The URL carries PKCE and a signed state that works once, for ten minutes, ' +
      'and only in the browser that made this call: it also sets an httpOnly cookie, sent only to the callback, ' +
      'that the state is bound to.',
  })
  @ApiZodQuery(authorizeQuery)
  @ApiZodResponse(authorizeResultSchema)
  async authorize(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(integrationParams)) p: Params,
    @Query(new ZodPipe(authorizeQuery)) q: z.output<typeof authorizeQuery>,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { authUrl, binding } = await this.integrations.authorize(user.id, p.sparkId, p.provider, q.service);
    res.cookie(CONNECT_COOKIE, binding, this.integrations.connectCookieOptions());
    return { authUrl };
  }

  @Delete('sparks/:sparkId/integrations/:provider')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Disconnect: the stored tokens and followed files are deleted; imported documents stay' })
  @ApiZodResponse(integrationDisconnectedSchema)
  disconnect(@CurrentUser() user: AuthUser, @Param(new ZodPipe(integrationParams)) p: Params) {
    return this.integrations.disconnect(user.id, p.sparkId, p.provider);
  }

  @Public()
  @Get('integrations/microsoft/callback')
  @RawResponse()
  @ApiOperation({ summary: 'Microsoft returns here; redirects to the Spark with q=sharepoint-conected' })
  @ApiResponse({
    status: 302,
    description:
      'Redirects to the Spark (`q=sharepoint-conected` or `error=sharepoint`), or home when the state is bad or ' +
      "the browser lacks the authorize call's cookie; the cookie is cleared either way",
  })
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    const binding = parseCookies(req.headers.cookie ?? '')[CONNECT_COOKIE];
    const target = await this.integrations.callback(req.query, binding);
    const { maxAge: _, ...options } = this.integrations.connectCookieOptions();
    res.clearCookie(CONNECT_COOKIE, options);
    res.redirect(302, target);
  }
}
