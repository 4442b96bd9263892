import { expect, type APIRequestContext, type BrowserContext } from '@playwright/test';

import { verificationCode } from './outbox';

export const E2E_PASSWORD = 'Sup3r-secret!';

/** How far ahead of the servers the browser's clock runs in a signed-in test (see useSession). */
const CLOCK_AHEAD_MS = 5_000;

export interface Account {
  email: string;
  accessToken: string;
  refreshToken: string;
  /** Authorization header for calls made by the test itself. */
  headers: Record<string, string>;
}

/**
 * A verified user made through the API: register with a unique @example.com address, read the 6-digit code
 * from the dev outbox, verify it and keep the tokens.
 */
export async function signUp(request: APIRequestContext, lang: 'en' | 'es', tag = 'e2e'): Promise<Account> {
  const email = `${tag}.${lang}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;
  // Each new user signs up from an address of their own (the app trusts X-Forwarded-For from loopback in the tests),
  // as real users do: from one address, the whole suite's sign-ups went past the per-IP limit of register and
  // verify-code (100 in 15 minutes) once its tests ran four at a time.
  const octet = () => 1 + Math.floor(Math.random() * 254);
  const client = { 'X-Forwarded-For': `198.18.${octet()}.${octet()}` };
  const registered = await request.post('/api/v1/auth/register', {
    data: { username: email, email, password: E2E_PASSWORD, config: { language: lang } },
    headers: client,
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const code = await verificationCode(request, email);
  const verified = await request.post('/api/v1/auth/verify-code', {
    data: { username: email, code, password: E2E_PASSWORD },
    headers: client,
  });
  expect(verified.ok(), await verified.text()).toBe(true);
  const tokens = ((await verified.json()) as { data: { access_token: string; refresh_token: string } }).data;
  return {
    email,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    headers: { Authorization: `Bearer ${tokens.access_token}` },
  };
}

/**
 * Puts the session (and the language) in localStorage before any page script runs. Unless `realClock` is asked,
 * the browser's clock also runs ahead (Playwright's clock: Date only, timers keep real time), so that every
 * message of the assistant is older than the 1 s within which a reply shows in 800 ms turns
 * (web/src/features/chat/display.ts): replies show at once instead of making each test wait out their turns.
 * e2e/reveal-timing.spec.ts keeps checking the real turns.
 */
export async function useSession(
  context: BrowserContext,
  account: Account,
  lang: 'en' | 'es',
  options: { realClock?: boolean } = {},
): Promise<void> {
  if (!options.realClock) await context.clock.setSystemTime(Date.now() + CLOCK_AHEAD_MS);
  const values = {
    access_token: account.accessToken,
    refresh_token: account.refreshToken,
    refresh_Token: account.refreshToken,
    i18nextLng: lang,
  };
  await context.addInitScript({
    content: `(() => { const v = ${JSON.stringify(values)}; if (!sessionStorage.getItem('e2e-session')) { for (const [k, x] of Object.entries(v)) localStorage.setItem(k, x); sessionStorage.setItem('e2e-session', '1'); } })();`,
  });
}
