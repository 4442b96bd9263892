import { MicrosoftOAuth } from './microsoft-oauth';

const oauth = new MicrosoftOAuth({
  loginUrl: 'https://login.example',
  tenant: 'organizations',
  clientId: 'client',
  clientSecret: 'secret',
  scopes: { onedrive: 'offline_access Files.Read', sharepoint: 'offline_access Files.Read.All Sites.Read.All' },
  redirectUri: 'https://app.example/api/v1/integrations/microsoft/callback',
});

describe('MicrosoftOAuth scopes', () => {
  it('asks each service for its own scopes', () => {
    const scope = (service: 'onedrive' | 'sharepoint') =>
      new URL(oauth.authorizeUrl('state', 'challenge', service)).searchParams.get('scope');
    expect(scope('onedrive')).toBe('offline_access Files.Read');
    expect(scope('sharepoint')).toBe('offline_access Files.Read.All Sites.Read.All');
  });

  it('refreshes with the granted scopes, putting back offline_access, which Microsoft leaves out of them', () => {
    expect(oauth.refreshScopes({ service: 'onedrive', scopes: 'Files.Read openid profile' })).toBe(
      'offline_access Files.Read openid profile',
    );
    expect(oauth.refreshScopes({ service: 'sharepoint', scopes: 'offline_access Files.Read.All Sites.Read.All' })).toBe(
      'offline_access Files.Read.All Sites.Read.All',
    );
    // A connection that recorded none asks for its service's.
    expect(oauth.refreshScopes({ service: 'onedrive', scopes: '' })).toBe('offline_access Files.Read');
    expect(oauth.refreshScopes({ service: 'sharepoint', scopes: ' ' })).toBe(
      'offline_access Files.Read.All Sites.Read.All',
    );
  });
});
