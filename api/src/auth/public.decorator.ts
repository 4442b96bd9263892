import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Language } from '@sparks/contracts';

export const IS_PUBLIC = 'sparks:public';
/** Opens a route to signed-out callers; every other route needs a valid access token. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export interface AuthUser {
  id: string;
  username: string;
  language: Language;
}

/** The signed-in user, as the auth guard loaded it. */
export const CurrentUser = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AuthUser => ctx.switchToHttp().getRequest<{ user: AuthUser }>().user,
);

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}
