import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@sparks/core';
import { AccountsRepository } from '@sparks/db';
import type { Request } from 'express';
import { bearerToken, IS_PUBLIC, type AuthUser } from './public.decorator';
import { TokensService } from './tokens.service';

/** Deny by default: a route is open only when marked @Public(). */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokensService,
    private readonly accounts: AccountsRepository,
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
      throw new DomainError(401, { code: 'UNAUTHORIZED' });
    }
    req.user = { id: user.id, username: user.username, language: user.language };
    return true;
  }
}
