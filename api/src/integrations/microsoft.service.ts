import { Inject, Injectable } from '@nestjs/common';
import { tokenKeyBytes, type AppConfig } from '@sparks/core';
import { IntegrationsRepository, type IntegrationConnectionRow } from '@sparks/db';
import { freshAccessToken, GraphClient, MicrosoftOAuth } from '@sparks/knowledge';
import { CONFIG } from '../infra/tokens';

/** The Microsoft identity platform and Graph as this server is configured for them (null pieces when it is not). */
@Injectable()
export class MicrosoftService {
  readonly oauth: MicrosoftOAuth | undefined;
  private readonly key: Buffer | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly repo: IntegrationsRepository,
  ) {
    if (!config.MICROSOFT_ENABLED) return;
    this.key = tokenKeyBytes(config.INTEGRATION_TOKEN_KEY!);
    this.oauth = new MicrosoftOAuth({
      loginUrl: config.MICROSOFT_LOGIN_URL,
      tenant: config.MICROSOFT_TENANT,
      clientId: config.MICROSOFT_CLIENT_ID!,
      clientSecret: config.MICROSOFT_CLIENT_SECRET!,
      scopes: config.MICROSOFT_SCOPES,
      redirectUri: this.redirectUri,
    });
  }

  get enabled(): boolean {
    return this.oauth !== undefined;
  }

  get redirectUri(): string {
    return `${this.config.APP_URL}/api/v1/integrations/microsoft/callback`;
  }

  get tokenKey(): Buffer {
    if (!this.key) throw new Error('Microsoft is not configured');
    return this.key;
  }

  /** A Graph client for a connection: its token refreshed before expiry, its URLs held to the Graph base. */
  graphFor(connection: IntegrationConnectionRow): GraphClient {
    const oauth = this.oauth;
    if (!oauth) throw new Error('Microsoft is not configured');
    return new GraphClient({
      baseUrl: this.config.MICROSOFT_GRAPH_URL,
      downloadHosts: this.config.MICROSOFT_DOWNLOAD_HOSTS,
      accessToken: async () => {
        const token = await freshAccessToken(this.repo, oauth, this.tokenKey, connection.id);
        if (!token) throw new Error('the connection was removed');
        return token;
      },
    });
  }
}
