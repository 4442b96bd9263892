import { createHash, randomBytes } from 'node:crypto';

/** The Microsoft identity platform's settings, as `AppConfig` carries them. */
export interface MicrosoftOAuthSettings {
  loginUrl: string;
  tenant: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated delegated scopes asked for per service, `offline_access` among them (least privilege). */
  scopes: Record<MicrosoftService, string>;
  redirectUri: string;
  timeoutMs?: number;
}

/** What a connection reads: the user's own OneDrive, or the SharePoint sites they can open. */
export type MicrosoftService = 'onedrive' | 'sharepoint';

export interface TokenSet {
  accessToken: string;
  /** Microsoft may answer a new refresh token with each refresh; undefined when it did not. */
  refreshToken?: string;
  expiresAt: Date;
  /** The scopes granted, as the token endpoint answered them (those asked for when it did not say). */
  scopes: string;
}

/**
 * The token endpoint said no. `invalidGrant` means the grant (code or refresh token) is spent, revoked or
 * expired: the user must connect again. Anything else is a fault on the way (network, 5xx, bad answer).
 */
export class OAuthError extends Error {
  constructor(
    message: string,
    readonly invalidGrant: boolean,
  ) {
    super(message);
  }
}

/** A PKCE pair (RFC 7636, S256): the verifier stays with us, the challenge goes in the authorization URL. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * OAuth 2.0 authorization code with PKCE against the Microsoft identity platform v2 endpoints
 * (`<login>/<tenant>/oauth2/v2.0/authorize` and `/token`), with plain fetch: two form posts do not need a
 * library (docs/decisions.md, "Document sharing: Microsoft Graph with plain fetch").
 */
export class MicrosoftOAuth {
  constructor(private readonly s: MicrosoftOAuthSettings) {}

  private endpoint(name: 'authorize' | 'token'): string {
    return `${this.s.loginUrl}/${encodeURIComponent(this.s.tenant)}/oauth2/v2.0/${name}`;
  }

  /** The scopes a new connection to `service` asks for. */
  scopesFor(service: MicrosoftService): string {
    return this.s.scopes[service];
  }

  /**
   * The scopes a connection's refresh asks for: those it was granted, with `offline_access` (Microsoft leaves it out
   * of the granted list) so that a new refresh token comes back; a connection that recorded none asks for its
   * service's.
   */
  refreshScopes(connection: { service: string; scopes: string }): string {
    const granted = connection.scopes.split(/\s+/).filter((s) => s !== '');
    if (granted.length === 0) return this.scopesFor(connection.service === 'onedrive' ? 'onedrive' : 'sharepoint');
    return (granted.includes('offline_access') ? granted : ['offline_access', ...granted]).join(' ');
  }

  authorizeUrl(state: string, codeChallenge: string, service: MicrosoftService): string {
    const url = new URL(this.endpoint('authorize'));
    url.search = new URLSearchParams({
      client_id: this.s.clientId,
      response_type: 'code',
      redirect_uri: this.s.redirectUri,
      response_mode: 'query',
      scope: this.scopesFor(service),
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      prompt: 'select_account',
    }).toString();
    return url.toString();
  }

  exchangeCode(code: string, verifier: string, service: MicrosoftService): Promise<TokenSet> {
    return this.token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.s.redirectUri,
      code_verifier: verifier,
      scope: this.scopesFor(service),
    });
  }

  /** A new access token for a connection, with the scopes it was granted (`refreshScopes`). */
  refresh(refreshToken: string, scopes: string): Promise<TokenSet> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken, scope: scopes });
  }

  private async token(params: Record<string, string>): Promise<TokenSet> {
    const started = Date.now();
    let res: Response;
    try {
      res = await fetch(this.endpoint('token'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          client_id: this.s.clientId,
          client_secret: this.s.clientSecret,
          ...params,
        }),
        redirect: 'error',
        signal: AbortSignal.timeout(this.s.timeoutMs ?? 15_000),
      });
    } catch (err) {
      throw new OAuthError(`token endpoint unreachable: ${(err as Error).message}`, false);
    }
    const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!res.ok || !body) {
      const code = typeof body?.error === 'string' ? body.error : `HTTP ${res.status}`;
      throw new OAuthError(`token endpoint refused: ${code}`, code === 'invalid_grant');
    }
    const accessToken = body.access_token;
    const expiresIn = Number(body.expires_in);
    if (typeof accessToken !== 'string' || accessToken === '' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
      throw new OAuthError('token endpoint answered no usable access token', false);
    }
    return {
      accessToken,
      refreshToken: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : undefined,
      expiresAt: new Date(started + expiresIn * 1000),
      scopes: typeof body.scope === 'string' && body.scope.trim() !== '' ? body.scope.trim() : params.scope,
    };
  }
}
