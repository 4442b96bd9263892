import { expect, test, type APIRequestContext } from '@playwright/test';

import enAdmin from '../web/public/locales/en/admin.json';
import enLayout from '../web/public/locales/en/layout.json';
import esAdmin from '../web/public/locales/es/admin.json';
import esLayout from '../web/public/locales/es/layout.json';
import { signUp, useSession, type Account } from './support/account';
import { adminCli } from './support/admin-cli';
import { fill } from './support/catalogues';
import { shotInto } from './support/shots';

/**
 * Issue 19: the admin page of the SPA against the real api, in English and in Spanish. An admin (granted with
 * `npm run admin -- grant`) reaches /admin from the Profile dropdown, finds an account by e-mail, disables it after a
 * confirmation (the account's billable calls then answer 403 ACCOUNT_INACTIVE), sees the action in the audit log with
 * who took it, enables it again, and opens the queues dashboard (Bull Board) through the admin cookie. A user who
 * is no admin has no such entry and is told the page is for admins. Screenshots: ADMIN_SHOTS_DIR.
 */

const SHOTS = process.env.ADMIN_SHOTS_DIR;
const texts = { en: { admin: enAdmin, layout: enLayout }, es: { admin: esAdmin, layout: esLayout } } as const;

/** The answer to a billable call of `account`: its status and first error code. */
async function createSpark(request: APIRequestContext, account: Account) {
  const response = await request.post('/api/v1/sparks', { data: { name: 'Probe' }, headers: account.headers });
  const body = (await response.json()) as { errors?: { code: string }[] };
  return { status: response.status(), code: body.errors?.[0]?.code };
}

for (const lang of ['en', 'es'] as const) {
  const { admin: a, layout } = texts[lang];

  test(`an admin finds an account, disables and enables it, reads the audit log and opens the queues (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(90_000);
    const admin = await signUp(request, lang, 'admin');
    expect(adminCli('grant', admin.email, '--as', 'e2e')).toContain(`${admin.email} is now an admin.`);
    const target = await signUp(request, lang, 'target');
    await useSession(context, admin, lang);

    // — the Profile dropdown leads admins to /admin —
    await page.goto('/');
    await page
      .getByRole('button', { name: fill(layout.profile.button, { name: `${admin.email.slice(0, 15)}…` }) })
      .click();
    await page.getByRole('menu').getByRole('menuitem', { name: layout.profile.admin }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { level: 1, name: a.title })).toBeVisible();

    // — find by e-mail (an unknown one is said so) —
    const search = page.getByRole('search');
    const email = search.getByLabel(a.find.label);
    await search.getByRole('button', { name: a.find.submit }).click();
    await expect(page.getByRole('alert')).toHaveText(a.find.required);
    await email.fill(`nobody.${Date.now()}@example.com`);
    await search.getByRole('button', { name: a.find.submit }).click();
    await expect(page.getByRole('alert')).not.toBeEmpty();
    await email.fill(target.email.toUpperCase());
    await search.getByRole('button', { name: a.find.submit }).click();
    const card = page.getByRole('region', { name: target.email });
    await expect(card.getByTestId('account-status')).toHaveText(a.account.active);
    await expect(card).toContainText(a.account.noHistory);
    await shotInto(SHOTS, page, `admin-found-${lang}`, 300);

    // — disable, after a confirmation that can be cancelled —
    await card.getByRole('button', { name: a.account.disable }).click();
    let dialog = page.getByRole('dialog', { name: fill(a.confirm.disableTitle, { email: target.email }) });
    await expect(dialog).toHaveAccessibleDescription(a.confirm.disableBody);
    await shotInto(SHOTS, page, `admin-confirm-disable-${lang}`, 300);
    await dialog.getByRole('button', { name: a.confirm.cancel }).click();
    await expect(dialog).toHaveCount(0);
    expect(await createSpark(request, target)).toEqual({ status: 201, code: undefined });

    await card.getByRole('button', { name: a.account.disable }).click();
    await dialog.getByRole('button', { name: a.confirm.disable, exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(card.getByTestId('account-status')).toHaveText(a.account.inactive);
    await expect(
      page.getByRole('status').filter({ hasText: fill(a.done.disabled, { email: target.email }) }),
    ).toBeVisible();
    expect(await createSpark(request, target)).toEqual({ status: 403, code: 'ACCOUNT_INACTIVE' });

    // — the audit log: the newest row is this action, with who took it —
    const log = page.getByRole('table', { name: a.audit.heading });
    await expect(log.getByRole('row').nth(1)).toContainText(a.actions.disable);
    await expect(log.getByRole('row').nth(1)).toContainText(target.email);
    await expect(log.getByRole('row').nth(1)).toContainText(admin.email);
    await expect(card.getByRole('table', { name: a.account.history }).getByRole('row')).toHaveCount(2);
    await shotInto(SHOTS, page, `admin-disabled-${lang}`, 300);

    // — enable again —
    await card.getByRole('button', { name: a.account.enable }).click();
    dialog = page.getByRole('dialog', { name: fill(a.confirm.enableTitle, { email: target.email }) });
    await dialog.getByRole('button', { name: a.confirm.enable, exact: true }).click();
    await expect(card.getByTestId('account-status')).toHaveText(a.account.active);
    await expect(log.getByRole('row').nth(1)).toContainText(a.actions.enable);
    expect(await createSpark(request, target)).toEqual({ status: 201, code: undefined });

    // — the queues dashboard (Bull Board), opened with the admin cookie —
    await page.getByRole('button', { name: a.queues.open }).click();
    await expect(page).toHaveURL(/\/admin\/queues\/$/);
    await expect(page).toHaveTitle(/Sparks queues/);
    await shotInto(SHOTS, page, `admin-queues-${lang}`, 1000);
  });

  test(`a user who is no admin has no admin entry and is told the page is for admins (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    const user = await signUp(request, lang, 'plain');
    await useSession(context, user, lang);
    await page.goto('/');
    await page
      .getByRole('button', { name: fill(layout.profile.button, { name: `${user.email.slice(0, 15)}…` }) })
      .click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: layout.profile.modify })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: layout.profile.admin })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: a.forbidden.title })).toBeVisible();
    await expect(page.getByRole('search')).toHaveCount(0);
    // Bull Board itself answers 401 without the admin cookie.
    expect((await request.get('/admin/queues/')).status()).toBe(401);
    await shotInto(SHOTS, page, `admin-forbidden-${lang}`, 300);
  });
}
