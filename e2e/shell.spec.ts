import { expect, test, type BrowserContext, type Page } from '@playwright/test';

import { signUp, useSession } from './support/account';

/** The SPA shell (issue 2, item 5): routing guard, title, version line, language switching, layout, not-found. */

test.use({ locale: 'en-US' });

async function languageCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === 'i18nextLng');
}

// Scripts run in the page are strings: the tests' tsconfig has no DOM lib.
function storedLanguage(page: Page): Promise<string | null> {
  return page.evaluate<string | null>("localStorage.getItem('i18nextLng')");
}

test.describe('SPA shell', () => {
  test('sends a visitor without a token from / to /auth', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page).toHaveTitle('Sparks');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to Sparks');
    await expect(page.getByText('v1.0.12')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sparks home' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toHaveCount(0);
  });

  test('switches to Spanish, keeps it across a reload and switches back', async ({ page, context }) => {
    await page.goto('/auth');
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText('Welcome to Sparks');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');

    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();

    await expect(heading).toHaveText('Te damos la bienvenida a Sparks');
    await expect(page.getByRole('group', { name: 'Idioma' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Español' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'false');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    expect(await storedLanguage(page)).toBe('es');
    const cookie = await languageCookie(context);
    expect(cookie).toMatchObject({ value: 'es', path: '/', sameSite: 'Lax' });
    // Max-Age of one year (allow a minute of slack).
    expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000 + 365 * 24 * 3600 - 60);

    await page.reload();
    await expect(heading).toHaveText('Te damos la bienvenida a Sparks');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByText('v1.0.12')).toBeVisible();

    await page.getByRole('group', { name: 'Idioma' }).getByRole('button', { name: 'English' }).click();
    await expect(heading).toHaveText('Welcome to Sparks');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(await storedLanguage(page)).toBe('en');
    expect(await languageCookie(context)).toMatchObject({ value: 'en' });
  });

  test('reads the language from the cookie when nothing is stored', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'i18nextLng', value: 'es', url: baseURL! }]);
    await page.goto('/auth');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Te damos la bienvenida a Sparks');
  });

  test.describe('signed in', () => {
    // The pages read the profile (and the Sparks), so they need a real session: a made-up token would be
    // refused and the client would end the session.
    test.beforeEach(async ({ context, request }) => {
      await useSession(context, await signUp(request, 'en', 'shell'), 'en');
    });

    test('shows the main layout on /', async ({ page }) => {
      await page.goto('/');
      await expect(page).toHaveURL(/\/$/);
      const nav = page.getByRole('navigation', { name: 'Main menu' });
      await expect(nav).toBeVisible();
      await expect(nav.getByRole('button', { name: 'Menu' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Your Sparks' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chat');
      await expect(page.getByText('v1.0.12')).toBeVisible();
      await expect(page).toHaveTitle('Sparks');
    });

    test('navigates between pages from the menu', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('menu').getByRole('menuitem', { name: 'Billing' }).click();
      await expect(page).toHaveURL(/\/billing$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Billing');
    });

    test('shows the translated "page not found" inside the layout for an unknown path', async ({ page }) => {
      await page.goto('/nope/deeper');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
      await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
      await expect(page).toHaveURL(/\/nope\/deeper$/);

      await page.getByRole('button', { name: 'Español' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Página no encontrada');
      await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible();

      await page.getByRole('link', { name: 'Volver al chat' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chat');
    });

    test('opens the onboarding tour under both spellings', async ({ page }) => {
      for (const path of ['/onBoarding', '/onboarding']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Welcome to Sparks/);
        await expect(page.getByRole('button', { name: 'Start the tour' })).toBeVisible();
      }
    });
  });
});
