import { api, type ApiClient } from '../../api/client';
import { clearSession, readAccessToken, readRefreshToken, storeTokens, type TokenPair } from './tokens';

/** Keeps the tokens of a sign-in (login, code verification, Google exchange) in storage (docs/product.md §3). */
export function startSession(tokens: TokenPair): void {
  storeTokens(tokens);
}

export interface LogoutOptions {
  client?: ApiClient;
  /** Where the browser goes afterwards; defaults to a full load of /auth, which also drops in-memory state. */
  redirect?: (path: string) => void;
}

/**
 * Signs out: tells the server (best effort — the local session ends whatever it answers), clears the storage
 * keeping the language and the remembered e-mail, and goes to /auth.
 */
export async function logout({
  client = api,
  redirect = (path) => window.location.replace(path),
}: LogoutOptions = {}): Promise<void> {
  if (readAccessToken()) {
    try {
      const refreshToken = readRefreshToken();
      await client.post('/auth/logout', refreshToken ? { refresh_token: refreshToken } : {});
    } catch {
      // Offline or already expired: the tokens are forgotten below anyway.
    }
  }
  clearSession();
  redirect('/auth');
}
