import { expect, test } from '@playwright/test';

import enChat from '../web/public/locales/en/chat.json';
import enLayout from '../web/public/locales/en/layout.json';
import esChat from '../web/public/locales/es/chat.json';
import esLayout from '../web/public/locales/es/layout.json';
import { E2E_PASSWORD, signUp, useSession } from './support/account';
import { adminCli } from './support/admin-cli';
import { shotInto } from './support/shots';

/**
 * Issue 19: an admin disables an account while its user has the app open (the CLI, `npm run admin -- disable`);
 * the user's next action — a chat message — is refused by the API with 403 ACCOUNT_INACTIVE and the
 * inactive-tenant modal (docs/product.md §2, §4) shows, in the user's language, offering only to log out. A fresh
 * load shows it at once (the profile's first tenant is inactive); enabled again, the account works.
 * Screenshots: INACTIVE_SHOTS_DIR (e.g. /tmp/shots-inactive).
 */

const SHOTS = process.env.INACTIVE_SHOTS_DIR;
const texts = { en: { chat: enChat, layout: enLayout }, es: { chat: esChat, layout: esLayout } } as const;

for (const lang of ['en', 'es'] as const) {
  const { chat, layout } = texts[lang];

  test(`a disabled account sees the inactive-tenant modal on its next action, and can only log out (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    const account = await signUp(request, lang, 'inactive');
    await useSession(context, account, lang);
    await page.goto('/');
    const box = page.getByRole('textbox', { name: chat.composer.label });
    await expect(box).toBeVisible();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);

    expect(adminCli('disable', account.email, '--as', 'e2e-admin')).toContain(`${account.email} is disabled.`);

    // The page still holds the profile read before: the next billable call is what finds out.
    await box.fill(lang === 'es' ? 'Hola' : 'Hello');
    await page.getByRole('button', { name: chat.composer.send }).click();
    const dialog = page.getByRole('alertdialog', { name: layout.inactive.title });
    await expect(dialog).toHaveAccessibleDescription(layout.inactive.body);
    await expect(dialog.getByRole('button', { name: layout.inactive.logout })).toBeVisible();
    await expect(dialog.getByRole('button')).toHaveText([layout.inactive.logout]);
    // No second, generic error dialog with it.
    await expect(page.getByRole('alertdialog')).toHaveCount(1);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await shotInto(SHOTS, page, `inactive-after-action-${lang}`, 400);

    // It cannot be dismissed.
    await page.keyboard.press('Escape');
    await expect(dialog.getByRole('button', { name: layout.inactive.logout })).toBeVisible();

    // A fresh load shows it straight away: the profile says the first tenant is inactive.
    await page.reload();
    await expect(
      page
        .getByRole('alertdialog', { name: layout.inactive.title })
        .getByRole('button', { name: layout.inactive.logout }),
    ).toBeVisible();
    await shotInto(SHOTS, page, `inactive-on-load-${lang}`, 400);

    // Its one button logs out.
    await page.getByRole('button', { name: layout.inactive.logout }).click();
    await expect(page).toHaveURL(/\/auth/);
    expect(await page.evaluate<string | null>("localStorage.getItem('access_token')")).toBeNull();
    // Logging out ended the account's sessions on the server too.
    expect((await request.get('/api/v1/account/profile', { headers: account.headers })).status()).toBe(401);

    // Enabled again, the account signs in and its billable calls go through.
    expect(adminCli('enable', account.email, '--as', 'e2e-admin')).toContain(`${account.email} is enabled.`);
    const login = await request.post('/api/v1/auth/login', {
      data: { username: account.email, password: E2E_PASSWORD },
    });
    expect(login.status(), await login.text()).toBe(200);
    const { access_token } = ((await login.json()) as { data: { access_token: string } }).data;
    const created = await request.post('/api/v1/sparks', {
      data: { name: 'Back' },
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(created.status(), await created.text()).toBe(201);
  });
}
