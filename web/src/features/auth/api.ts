import type { AuthProviders, Language, LoginTokens, SupportContact, UserProfile } from '@sparks/contracts';

import { api } from '../../api/client';

/** The auth calls of docs/product.md §7 (all under /api/v1; the token refresh lives in the API client). */

export function register(email: string, password: string, language: Language): Promise<UserProfile> {
  return api.post('/auth/register', { username: email, email, password, config: { language } });
}

export function sendCode(email: string): Promise<{ sent: boolean; cooldownSeconds: number }> {
  return api.post('/auth/send-code', { username: email });
}

/**
 * `password`: the one chosen at sign-up, when this browser has it (just signed up, or "verify now" after a login):
 * the server keeps it only then; without it the code verifies the e-mail with no password set.
 */
export function verifyCode(email: string, code: string, password?: string): Promise<LoginTokens> {
  return api.post('/auth/verify-code', { username: email, code, ...(password ? { password } : {}) });
}

/** `code`: the one e-mailed after LOGIN_CODE_REQUIRED (too many failed logins on the account). */
export function login(email: string, password: string, code?: string): Promise<LoginTokens> {
  return api.post('/auth/login', { username: email, password, ...(code ? { code } : {}) });
}

export function providers(): Promise<AuthProviders> {
  return api.get('/auth/providers');
}

/** Where users ask for help: the server's SUPPORT_EMAIL, or null. */
export function supportContact(): Promise<SupportContact> {
  return api.get('/auth/support');
}

/** Where the browser goes to sign in with a provider. */
export function providerLoginUrl(provider: 'google'): Promise<{ url: string }> {
  return api.get(`/auth/service/${provider}/login`);
}

/** Trades the one-time token of a Google sign-in (`/auth?token=`) for the session tokens. */
export function exchangeToken(token: string): Promise<LoginTokens> {
  return api.get('/auth/exchange-token', { headers: { Authorization: `Bearer ${token}` } });
}

export function forgotPassword(email: string): Promise<{ sent: boolean }> {
  return api.post('/users/forgot-password', { email });
}

/** Sets a new password; the bearer is the token of the reset link. */
export function resetPassword(token: string, newPassword: string): Promise<{ username: string }> {
  return api.post('/users/reset-password', { newPassword }, { headers: { Authorization: `Bearer ${token}` } });
}
