/** Spec §3 browser storage key of the access token. */
export const ACCESS_TOKEN_KEY = 'access_token';

/** The stored access token, or null (also when storage is unavailable, e.g. blocked by the browser). */
export function readAccessToken(): string | null {
  try {
    return window.localStorage.getItem(ACCESS_TOKEN_KEY);
  } catch {
    return null;
  }
}
