import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@sparks/core';
import { AccountsRepository, AdminRepository } from '@sparks/db';
import type { Request } from 'express';
import { ALLOW_INACTIVE, BILLABLE, bearerToken, IS_PUBLIC, type AuthUser } from './public.decorator';
import { TokensService } from './tokens.service';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Deny by default: a route is open only when marked @Public(). A disabled account (docs/product.md §4: its
 * first tenant is inactive) signs in and reads, so the web can show the inactive-tenant modal, but
 * every request that changes or costs something (any method but a read, and reads marked @Billable()) answers 403 ACCOUNT_INACTIVE unless the route is
 * marked @AllowInactive().
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokensService,
    private readonly accounts: AccountsRepository,
    private readonly admin: AdminRepository,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const req = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    const token = bearerToken(req.headers.authorization);
    const claims = token ? await this.tokens.verifyAccess(token) : undefined;
    const user = claims ? await this.accounts.findUserById(claims.sub) : undefined;
    if (!claims || !user || user.tokenVersion !== claims.tv) {
      throw new DomainError({ code: 'UNAUTHORIZED' });
    }
    req.user = { id: user.id, username: user.username, language: user.language };
    const targets = [context.getHandler(), context.getClass()];
    if (!READS.has(req.method) || this.reflector.getAllAndOverride<boolean>(BILLABLE, targets)) {
      const allowed = this.reflector.getAllAndOverride<boolean>(ALLOW_INACTIVE, targets);
      if (!allowed && (await this.admin.accountStatus(user.id)) !== 'active') {
        throw new DomainError({ code: 'ACCOUNT_INACTIVE' });
      }
    }
    return true;
  }
}
