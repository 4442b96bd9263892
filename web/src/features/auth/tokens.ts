/** docs/product.md §3 browser storage keys of the session and of the login form. */
export const ACCESS_TOKEN_KEY = 'access_token';
/** The refresh token is kept under both spellings the spec uses. */
const REFRESH_TOKEN_KEY = 'refresh_token';
const REFRESH_TOKEN_LEGACY_KEY = 'refresh_Token';
export const REMEMBER_ME_KEY = 'rememberMe';
export const EMAIL_FOR_LOGIN_KEY = 'emailForLogin';

/** What survives a sign-out or a failed refresh: the language and the remembered login e-mail. */
const KEPT_ON_SIGN_OUT = ['i18nextLng', 'i18nextLang', REMEMBER_ME_KEY, EMAIL_FOR_LOGIN_KEY] as const;

/** localStorage, or null when the browser blocks it (private modes, sandboxed frames). */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function readItem(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    // Quota or privacy mode: the session then lasts as long as the page.
  }
}

export function removeItem(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // nothing stored, nothing to remove
  }
}

/** The stored access token, or null (also when storage is unavailable, e.g. blocked by the browser). */
export function readAccessToken(): string | null {
  return readItem(ACCESS_TOKEN_KEY);
}

export function readRefreshToken(): string | null {
  return readItem(REFRESH_TOKEN_KEY) || readItem(REFRESH_TOKEN_LEGACY_KEY) || null;
}

/** Answers of login, verify-code, exchange-token (`refresh_Token`) and refresh-token (`refresh_token`). */
export interface TokenPair {
  access_token: string;
  refresh_token?: string;
  refresh_Token?: string;
}

export function storeTokens(tokens: TokenPair): void {
  writeItem(ACCESS_TOKEN_KEY, tokens.access_token);
  const refresh = tokens.refresh_token ?? tokens.refresh_Token;
  if (refresh) {
    writeItem(REFRESH_TOKEN_KEY, refresh);
    writeItem(REFRESH_TOKEN_LEGACY_KEY, refresh);
  }
}

/** Clears the browser storage of the session (docs/product.md §4), keeping the language and the remembered e-mail. */
export function clearSession(): void {
  const store = storage();
  if (!store) return;
  try {
    const kept = KEPT_ON_SIGN_OUT.map((key) => [key, store.getItem(key)] as const);
    store.clear();
    for (const [key, value] of kept) if (value !== null) store.setItem(key, value);
  } catch {
    // storage became unavailable; nothing left to clear
  }
}
