import { Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  adminUserParams,
  adminUserQuery,
  type AdminAccountView,
  type AdminMe,
  type AdminAuditEntry,
  type AdminSession,
  type AdminUserParams,
  adminMeSchema,
  adminAccountViewSchema,
  adminAuditEntrySchema,
  adminSessionSchema,
  adminSessionClosedSchema,
} from '@sparks/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import { CurrentUser, type AuthUser } from '../auth/public.decorator';
import { ApiZodQuery, ZodPipe, ApiZodResponse } from '../common/zod';
import { ADMIN_COOKIE, AdminService } from './admin.service';

/**
 * The admin API, for admins only (403 FORBIDDEN for everyone else), with the SPA's bearer token; only
 * `GET /admin/me` answers everyone, about themselves (so the SPA asks it without a refused request).
 * `POST /admin/session` turns that token into the admin pages' cookie (Bull Board at /admin/queues).
 */
@ApiTags('admin')
@ApiBearerAuth()
@Controller('admin')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Get('me')
  @ApiOperation({
    summary: 'Whether the caller is an admin: `{ admin: true, username }`, or `{ admin: false }` for everyone else',
  })
  @ApiZodResponse(adminMeSchema)
  async me(@CurrentUser() user: AuthUser): Promise<AdminMe> {
    return this.admin.whoIs(user.id);
  }

  @Get('users')
  @ApiOperation({ summary: 'An account by e-mail, with its status and the admin actions on it' })
  @ApiZodQuery(adminUserQuery)
  @ApiZodResponse(adminAccountViewSchema)
  async find(
    @CurrentUser() user: AuthUser,
    @Query(new ZodPipe(adminUserQuery)) q: z.output<typeof adminUserQuery>,
  ): Promise<AdminAccountView> {
    await this.admin.requireAdmin(user.id);
    return this.admin.findAccount(q.email);
  }

  @Post('users/:userId/disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Disable an account (docs/product.md §4: its first tenant becomes inactive); logged' })
  @ApiZodResponse(adminAccountViewSchema)
  disable(@CurrentUser() user: AuthUser, @Param(new ZodPipe(adminUserParams)) p: AdminUserParams) {
    return this.admin.setStatus(user.id, p.userId, 'inactive');
  }

  @Post('users/:userId/enable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Enable a disabled account again; logged' })
  @ApiZodResponse(adminAccountViewSchema)
  enable(@CurrentUser() user: AuthUser, @Param(new ZodPipe(adminUserParams)) p: AdminUserParams) {
    return this.admin.setStatus(user.id, p.userId, 'active');
  }

  @Get('audit')
  @ApiOperation({ summary: 'The latest 50 admin actions, newest first' })
  @ApiZodResponse(z.array(adminAuditEntrySchema))
  async audit(@CurrentUser() user: AuthUser): Promise<AdminAuditEntry[]> {
    await this.admin.requireAdmin(user.id);
    return this.admin.latestAudit();
  }

  @Post('session')
  @HttpCode(200)
  @ApiOperation({ summary: 'Open the admin pages: sets a short-lived httpOnly SameSite=Strict cookie for /admin' })
  @ApiZodResponse(adminSessionSchema)
  async openSession(@CurrentUser() user: AuthUser, @Res({ passthrough: true }) res: Response): Promise<AdminSession> {
    const { token, expiresAt } = await this.admin.openSession(user.id);
    res.cookie(ADMIN_COOKIE, token, this.admin.cookieOptions(expiresAt.getTime() - Date.now()));
    return { expiresAt: expiresAt.toISOString() };
  }

  @Delete('session')
  @HttpCode(200)
  @ApiOperation({ summary: 'Close the admin pages: clears the cookie' })
  @ApiZodResponse(adminSessionClosedSchema)
  closeSession(@Res({ passthrough: true }) res: Response): { closed: true } {
    const { maxAge: _, ...options } = this.admin.cookieOptions(0);
    res.clearCookie(ADMIN_COOKIE, options);
    return { closed: true };
  }
}
