import { MicrosoftOAuth, OAuthError, type TokenSet } from './microsoft-oauth';
import { openToken, sealToken } from './token-seal';

/** The columns of a connection these functions read (`IntegrationConnectionRow` of `@sparks/db`). */
export interface ConnectionTokenRow {
  id: string;
  sparkId: string;
  provider: string;
  /** `onedrive` or `sharepoint`: what the connection was made for. */
  service: string;
  /** The scopes it was granted; its refreshes ask for these (`MicrosoftOAuth.refreshScopes`). */
  scopes: string;
  accessTokenSealed: string;
  refreshTokenSealed: string | null;
  expiresAt: Date;
}

export interface SealedTokenSet {
  accessTokenSealed: string;
  refreshTokenSealed: string | null;
  expiresAt: Date;
  scopes: string;
}

/** What `IntegrationsRepository.withLocked` offers: the row locked, and the tokens written back. */
export interface ConnectionLocker {
  withLocked<T>(
    id: string,
    fn: (row: ConnectionTokenRow) => Promise<{ tokens?: SealedTokenSet; result: T }>,
  ): Promise<T | undefined>;
}

/** An access token is refreshed when it has less than this left, so a Graph call never starts with a dying one. */
export const REFRESH_LEAD_MS = 5 * 60_000;

const context = (row: { sparkId: string; provider: string }, kind: 'access' | 'refresh') =>
  `${row.sparkId}:${row.provider}:${kind}`;

/** Seals a token set for a connection's row (the refresh token kept when Microsoft sent no new one). */
export function sealTokenSet(
  key: Buffer,
  row: { sparkId: string; provider: string },
  tokens: TokenSet,
  previousRefreshSealed: string | null = null,
): SealedTokenSet {
  return {
    accessTokenSealed: sealToken(key, context(row, 'access'), tokens.accessToken),
    refreshTokenSealed: tokens.refreshToken
      ? sealToken(key, context(row, 'refresh'), tokens.refreshToken)
      : previousRefreshSealed,
    expiresAt: tokens.expiresAt,
    scopes: tokens.scopes,
  };
}

/**
 * A usable access token for a connection: the stored one while it has more than `REFRESH_LEAD_MS` left,
 * otherwise a refreshed one, under the row's lock so that the api and the workers refresh it once. Throws
 * `OAuthError` (`invalidGrant` when the user must connect again), or answers undefined when the connection
 * is gone.
 */
export async function freshAccessToken(
  locker: ConnectionLocker,
  oauth: MicrosoftOAuth,
  key: Buffer,
  connectionId: string,
  now: () => number = Date.now,
): Promise<string | undefined> {
  return locker.withLocked(connectionId, async (row) => {
    if (row.expiresAt.getTime() - now() > REFRESH_LEAD_MS) {
      const access = openToken(key, context(row, 'access'), row.accessTokenSealed);
      if (access) return { result: access };
    }
    const refresh = row.refreshTokenSealed
      ? openToken(key, context(row, 'refresh'), row.refreshTokenSealed)
      : undefined;
    if (!refresh) throw new OAuthError('the connection has no refresh token that opens: connect again', true);
    const tokens = await oauth.refresh(refresh, oauth.refreshScopes(row));
    return { tokens: sealTokenSet(key, row, tokens, row.refreshTokenSealed), result: tokens.accessToken };
  });
}
