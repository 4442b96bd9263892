import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Language } from '@sparks/contracts';

export const IS_PUBLIC = 'sparks:public';
/** Opens a route to signed-out callers; every other route needs a valid access token. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const ALLOW_INACTIVE = 'sparks:allow-inactive';
/**
 * A disabled account (first tenant inactive) may still call this route although it changes
 * something: signing out, the language of its own profile. Every other request that is not a read
 * is refused with 403 ACCOUNT_INACTIVE.
 */
export const AllowInactive = () => SetMetadata(ALLOW_INACTIVE, true);

export const BILLABLE = 'sparks:billable';
/**
 * A GET that costs or changes something (a chat message sent as an event stream): refused to a
 * disabled account like any write.
 */
export const Billable = () => SetMetadata(BILLABLE, true);

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
