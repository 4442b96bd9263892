import { tokenKeyBytes, type AppConfig } from '@sparks/core';
import { freshAccessToken, type ConnectionLocker } from './connection-tokens';
import { GraphClient } from './graph-client';
import { MicrosoftOAuth } from './microsoft-oauth';

type MicrosoftSettings = Pick<
  AppConfig,
  | 'MICROSOFT_ENABLED'
  | 'INTEGRATION_TOKEN_KEY'
  | 'MICROSOFT_LOGIN_URL'
  | 'MICROSOFT_TENANT'
  | 'MICROSOFT_CLIENT_ID'
  | 'MICROSOFT_CLIENT_SECRET'
  | 'MICROSOFT_ONEDRIVE_SCOPES'
  | 'MICROSOFT_SHAREPOINT_SCOPES'
  | 'MICROSOFT_GRAPH_URL'
  | 'MICROSOFT_DOWNLOAD_HOSTS'
  | 'APP_URL'
>;

/**
 * The Microsoft identity platform and Graph as a process is configured for them, shared by the api (connecting,
 * the file picker) and the worker (imports, sync): `oauth` is undefined when the server has no Microsoft app.
 */
export class MicrosoftGraph {
  readonly oauth: MicrosoftOAuth | undefined;
  private readonly key: Buffer | undefined;

  constructor(
    private readonly config: MicrosoftSettings,
    private readonly locker: ConnectionLocker,
  ) {
    if (!config.MICROSOFT_ENABLED) return;
    this.key = tokenKeyBytes(config.INTEGRATION_TOKEN_KEY!);
    this.oauth = new MicrosoftOAuth({
      loginUrl: config.MICROSOFT_LOGIN_URL,
      tenant: config.MICROSOFT_TENANT,
      clientId: config.MICROSOFT_CLIENT_ID!,
      clientSecret: config.MICROSOFT_CLIENT_SECRET!,
      scopes: { onedrive: config.MICROSOFT_ONEDRIVE_SCOPES, sharepoint: config.MICROSOFT_SHAREPOINT_SCOPES },
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
  graphFor(connection: { id: string }): GraphClient {
    const oauth = this.oauth;
    if (!oauth) throw new Error('Microsoft is not configured');
    return new GraphClient({
      baseUrl: this.config.MICROSOFT_GRAPH_URL,
      downloadHosts: this.config.MICROSOFT_DOWNLOAD_HOSTS,
      accessToken: async () => {
        const token = await freshAccessToken(this.locker, oauth, this.tokenKey, connection.id);
        if (!token) throw new Error('the connection was removed');
        return token;
      },
    });
  }
}
