import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';

import enPrivacy from '../web/public/locales/en/privacy.json';
import esDeploy from '../web/public/locales/es/deploy.json';
import esPrivacy from '../web/public/locales/es/privacy.json';
import { PRIVACY_TEXTS } from '../web/src/widget/privacy-texts';
import { TEXTS } from '../web/src/widget/texts';
import { E2E_PASSWORD, signUp, useSession, type Account } from './support/account';
import { seriousViolations } from './support/axe';
import { catalogues, fill } from './support/catalogues';
import { shotInto } from './support/shots';
import { dataOf, sparkWithPdf } from './support/sparks';

/**
 * The owner's and the visitors' rights (issue 30), in English on a desktop (1440×900) and in Spanish on a phone
 * (390×844): the profile's "Your data" downloads the account as a zip and deletes the account after the typed
 * confirmation; /deploy sets how long visitors' conversations are kept; the widget says so before the first message,
 * and a visitor deletes their own conversation. The profile's "Weekly e-mail" (issue 35 item 4) shows the zone the
 * browser reported, and keeps a zone and an off switch saved in it (in English at 1440×900, in Spanish on a 375×812
 * phone). PRIVACY_SHOTS_DIR=/tmp/shots-privacy keeps screenshots.
 */
const SHOTS = process.env.PRIVACY_SHOTS_DIR;
const privacy = { en: enPrivacy, es: esPrivacy } as const;
const screens = {
  en: { viewport: { width: 1440, height: 900 }, device: 'desktop' },
  es: { viewport: { width: 390, height: 844 }, device: 'phone' },
} as const;

const words = {
  en: {
    name: 'Harbour Books',
    greeting: 'Hi! Ask me about the shop.',
    pdf: 'Harbour guide.pdf',
    text: 'Harbour Books opens every day from 9 to 19. Second-hand books are bought on Saturdays.',
    question: 'When does Harbour Books open?',
    answer: /9/,
  },
  es: {
    name: 'Librería Puerto',
    greeting: '¡Hola! Pregúntame por la tienda.',
    pdf: 'Guía Librería Puerto.pdf',
    text: 'La Librería Puerto abre todos los días de 9 a 19. Los libros de segunda mano se compran los sábados.',
    question: '¿A qué hora abre la librería?',
    answer: /9/,
  },
} as const;

/** A plain page on a local origin of its own that shows the snippet. */
async function hostPage(): Promise<{ origin: string; show: (snippet: string) => void; close: () => Promise<void> }> {
  let snippet = '';
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Shop</h1>${snippet}</body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    show: (value) => (snippet = value),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function openYourData(page: Page, lang: 'en' | 'es') {
  await page.goto('/profile');
  const open = page.getByRole('button', { name: privacy[lang].data.open });
  await expect(open).toBeVisible({ timeout: 60_000 });
  await shotInto(SHOTS, page, `profile-${lang}-${screens[lang].device}`, 500);
  await open.click();
  const dialog = page.getByRole('dialog', { name: privacy[lang].data.title });
  await expect(dialog.getByRole('heading', { name: privacy[lang].data.title })).toBeVisible();
  return dialog;
}

for (const lang of ['en', 'es'] as const) {
  const t = privacy[lang];
  const w = words[lang];
  const screen = screens[lang];

  test(`the profile exports the account as a zip and deletes it after the typed confirmation (${lang}, ${screen.device})`, async ({
    page,
    request,
    context,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(screen.viewport);
    const { account, sparkId } = await sparkWithPdf(request, {
      lang,
      tag: 'rights',
      name: w.name,
      greeting: w.greeting,
      pdf: w.pdf,
      title: w.name,
      text: w.text,
    });
    await useSession(context, account, lang);

    const dialog = await openYourData(page, lang);
    await shotInto(SHOTS, page, `your-data-${lang}-${screen.device}`, 300);
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: t.data.exportButton }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^sparks-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = unzipSync(new Uint8Array(fs.readFileSync(await file.path())));
    expect(strFromU8(zip['README.txt'])).toContain(lang === 'en' ? 'Your Sparks data' : 'Tus datos de Sparks');
    expect(JSON.parse(strFromU8(zip['account/profile.json']))).toMatchObject({ email: account.email });
    const folder = Object.keys(zip)
      .find((name) => name.endsWith('/spark.json'))!
      .replace('/spark.json', '');
    expect(JSON.parse(strFromU8(zip[`${folder}/spark.json`]))).toMatchObject({ id: sparkId, name: w.name });
    expect(strFromU8(zip[`${folder}/documents/text/01-${w.pdf}.txt`])).toContain(w.text.split('.')[0]);
    await expect(dialog.getByRole('status')).toContainText(fill(t.data.exported, { file: file.suggestedFilename() }));

    // Delete: the password, and the e-mail typed as confirmation before the button works.
    await dialog.getByRole('button', { name: t.data.deleteButton }).click();
    const confirm = page.getByRole('dialog', { name: t.delete.title });
    await expect(confirm.getByRole('heading', { name: t.delete.title })).toBeVisible();
    const submit = confirm.getByRole('button', { name: t.delete.submit, exact: true });
    await confirm.getByLabel(t.delete.password).fill(E2E_PASSWORD);
    await expect(submit).toBeDisabled();
    const typed = confirm.getByLabel(fill(t.delete.confirm, { email: account.email }));
    await typed.fill('someone@else.example');
    await expect(submit).toBeDisabled();
    await typed.fill(account.email);
    await expect(submit).toBeEnabled();
    // A wrong password is refused under its field, in the user's language, and nothing is deleted.
    await confirm.getByLabel(t.delete.password).fill('Wrong-passw0rd!');
    await submit.click();
    await expect(
      confirm.getByText(lang === 'en' ? 'That is not your password' : 'Esa no es tu contraseña'),
    ).toBeVisible();
    await confirm.getByLabel(t.delete.password).fill(E2E_PASSWORD);
    await shotInto(SHOTS, page, `delete-account-${lang}-${screen.device}`, 300);
    await submit.click();

    await expect(page).toHaveURL(/\/account-deleted$/);
    await expect(page.getByRole('heading', { name: t.deleted.title })).toBeVisible();
    await shotInto(SHOTS, page, `account-deleted-${lang}-${screen.device}`, 300);
    // Every session ended; the browser forgot the session.
    expect((await request.get('/api/v1/account/profile', { headers: account.headers })).status()).toBe(401);
    expect(await page.evaluate<string | null>("localStorage.getItem('access_token')")).toBeNull();
    await page.getByRole('link', { name: t.deleted.signIn }).click();
    await expect(page).toHaveURL(/\/auth/);
  });

  test(`the widget says answers are automatic and how long it keeps them; a visitor deletes their conversation (${lang}, ${screen.device})`, async ({
    page,
    request,
    context,
    browser,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(screen.viewport);
    const { account, sparkId } = await sparkWithPdf(request, {
      lang,
      tag: 'visitors',
      name: w.name,
      greeting: w.greeting,
      pdf: w.pdf,
      title: w.name,
      text: w.text,
    });
    const site = await hostPage();
    try {
      const deployment = `/api/v1/sparks/${sparkId}/deployment`;
      await dataOf(await request.post(deployment, { headers: account.headers, data: {} }));
      await dataOf(
        await request.post(`${deployment}/origins`, { headers: account.headers, data: { origin: site.origin } }),
      );
      // The owner keeps visitors' conversations 30 days, on /deploy.
      await useSession(context, account, lang);
      await page.goto(`/deploy?q=${encodeURIComponent(w.name)}`);
      const panel = page.getByTestId('deploy-panel');
      // On a phone the panel slides over the chat from the page's header button.
      if (screen.device === 'phone')
        await page.getByRole('button', { name: esDeploy.page.openPanel, exact: true }).click();
      const retention = panel.getByTestId('deploy-retention');
      const days = retention.getByLabel(t.retention.label);
      await expect(days).toHaveValue('90', { timeout: 90_000 });
      await days.fill('731');
      await retention.getByRole('button', { name: t.retention.save }).click();
      await expect(retention.getByRole('alert')).toContainText(
        lang === 'en' ? 'between 1 and 730 days' : 'entre 1 y 730 días',
      );
      await days.fill('30');
      await retention.getByRole('button', { name: t.retention.save }).click();
      await expect(retention.getByRole('status')).toContainText(fill(t.retention.saved, { days: 30 }));
      await retention.scrollIntoViewIfNeeded();
      await shotInto(SHOTS, page, `deploy-retention-${lang}-${screen.device}`, 300);
      const view = await dataOf<{ snippet: string }>(await request.get(deployment, { headers: account.headers }));
      site.show(view.snippet);

      const visitorContext = await browser.newContext({
        locale: lang === 'es' ? 'es-ES' : 'en-US',
        viewport: screen.viewport,
      });
      const visitor = await visitorContext.newPage();
      await visitor.goto(site.origin);
      const texts = { ...TEXTS[lang], ...PRIVACY_TEXTS[lang] };
      await visitor.getByRole('button', { name: new RegExp(texts.open.replace('{name}', w.name)) }).click();
      const chat = visitor.getByRole('dialog', { name: w.name });
      // Before the first message: automatic answers, kept 30 days, deletable.
      const notice = chat.locator('.m.notice');
      await expect(notice).toHaveText(texts.notice.replace('{days}', '30'));
      const remove = chat.getByRole('button', { name: texts.deleteConversation });
      await expect(remove).toBeHidden();
      await shotInto(SHOTS, visitor, `widget-notice-${lang}-${screen.device}`, 300);

      await chat.getByPlaceholder(texts.placeholder).fill(w.question);
      await chat.getByPlaceholder(texts.placeholder).press('Enter');
      await expect(chat.locator('.m.ai').last()).toContainText(w.answer, { timeout: 30_000 });
      const conversations = `${deployment}/conversations`;
      expect(await dataOf<unknown[]>(await request.get(conversations, { headers: account.headers }))).toHaveLength(1);

      await remove.click();
      await expect(chat.locator('.confirm', { hasText: texts.deleteConfirm })).toBeVisible();
      await shotInto(SHOTS, visitor, `widget-delete-confirm-${lang}-${screen.device}`, 300);
      await chat.getByRole('button', { name: texts.deleteYes, exact: true }).click();
      await expect(chat.locator('.m.note', { hasText: texts.deleted })).toBeVisible();
      await expect(chat.locator('.m.human')).toHaveCount(0);
      await expect(notice).toBeVisible();
      await expect(remove).toBeHidden();
      await shotInto(SHOTS, visitor, `widget-deleted-${lang}-${screen.device}`, 300);
      // The owner has nothing of it any more.
      expect(await dataOf<unknown[]>(await request.get(conversations, { headers: account.headers }))).toHaveLength(0);
      await visitorContext.close();
    } finally {
      await site.close();
    }
  });
}

test('sign-up links the privacy policy it asks to accept; the policy page reads in both languages', async ({
  browser,
}) => {
  for (const lang of ['en', 'es'] as const) {
    const context = await browser.newContext({ viewport: screens[lang].viewport });
    await context.addInitScript({ content: `localStorage.setItem('i18nextLng', '${lang}');` });
    const page = await context.newPage();
    await page.goto('/auth#register');
    const label = catalogues[lang].auth.register.privacy.replace(/<\/?policy>/g, '');
    const link = page.getByRole('link', { name: privacy[lang].policy.linkLabel });
    await expect(page.getByRole('checkbox', { name: label })).toBeVisible();
    await expect(link).toHaveAttribute('href', '/privacy');
    await expect(link).toHaveAttribute('target', '_blank');
    const [policy] = await Promise.all([page.waitForEvent('popup'), link.click()]);
    await expect(policy.getByRole('heading', { level: 1, name: privacy[lang].policy.title })).toBeVisible();
    await expect(policy.getByText(privacy[lang].policy.sections.rights.text)).toBeVisible();
    await shotInto(SHOTS, page, `sign-up-privacy-${lang}`, 300);
    await shotInto(SHOTS, policy, `privacy-policy-${lang}`, 300);
    await context.close();
  }
});

/** The browser's zone (the context's), and the one the owner picks instead. */
const digestCases = {
  en: { viewport: { width: 1440, height: 900 }, device: 'desktop', browserZone: 'Asia/Tokyo', chosen: 'Europe/Lisbon' },
  es: {
    viewport: { width: 375, height: 812 },
    device: 'phone',
    browserZone: 'America/Mexico_City',
    chosen: 'America/Bogota',
  },
} as const;

interface DigestProfile {
  timeZone: string | null;
  weeklyDigest: boolean;
}

const digestOf = async (request: APIRequestContext, account: Account): Promise<DigestProfile> => {
  const { timeZone, weeklyDigest } = await dataOf<DigestProfile>(
    await request.get('/api/v1/account/profile', { headers: account.headers }),
  );
  return { timeZone, weeklyDigest };
};

for (const lang of ['en', 'es'] as const) {
  const t = privacy[lang].digest;
  const c = digestCases[lang];

  test.describe(`weekly e-mail (${lang}, ${c.device})`, () => {
    test.use({ viewport: c.viewport, timezoneId: c.browserZone });

    test(`the profile's weekly e-mail shows the browser's zone, and keeps another zone and the e-mail off (${lang}, ${c.device})`, async ({
      page,
      request,
      context,
    }) => {
      test.setTimeout(90_000);
      const account = await signUp(request, lang, 'digest');
      await useSession(context, account, lang);
      await page.goto('/profile');
      const open = page.getByTestId('digest-open');
      await expect(open).toBeVisible({ timeout: 60_000 });
      await expect(open).toHaveAccessibleName(`${t.open} ${t.on}`);
      // The signed-in app told the account the browser's zone.
      await expect.poll(() => digestOf(request, account)).toEqual({ timeZone: c.browserZone, weeklyDigest: true });
      await shotInto(SHOTS, page, `digest-profile-${lang}-${c.device}`, 0);

      // Keyboard: Enter opens the dialog with the focus inside it, Escape closes it and gives the focus back.
      // The dialog's own element is a zero-sized frame around its fixed panel: its heading says whether it shows.
      const dialog = page.getByRole('dialog', { name: t.title });
      const heading = dialog.getByRole('heading', { name: t.title });
      const toggle = dialog.getByRole('switch', { name: t.toggle });
      const zone = dialog.getByLabel(t.timeZone);
      await open.focus();
      await page.keyboard.press('Enter');
      await expect(heading).toBeVisible();
      const focusInDialog = `Boolean(document.activeElement?.closest('[role="dialog"]'))`;
      await expect.poll(() => page.evaluate<boolean>(focusInDialog)).toBe(true);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(open).toBeFocused();

      await page.keyboard.press('Enter');
      await expect(toggle).toBeChecked();
      await expect(zone).toHaveValue(c.browserZone);
      await expect(dialog).toContainText(fill(t.description, { email: account.email }));
      // The panel and its select fit the window (a long address or zone name wraps or is cut, never overflows).
      for (const part of [page.locator('.dialog__panel'), zone]) {
        const box = (await part.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(c.viewport.width);
      }
      expect(await seriousViolations(page, `weekly e-mail dialog (${lang}, ${c.device})`)).toEqual([]);
      await shotInto(SHOTS, page, `digest-dialog-${lang}-${c.device}`, 0);

      await zone.selectOption(c.chosen);
      await toggle.press('Space');
      await expect(toggle).not.toBeChecked();
      await shotInto(SHOTS, page, `digest-changed-${lang}-${c.device}`, 0);
      await dialog.getByRole('button', { name: t.save, exact: true }).click();
      await expect(dialog).toHaveCount(0);
      await expect(open).toHaveAccessibleName(`${t.open} ${t.off}`);
      expect(await digestOf(request, account)).toEqual({ timeZone: c.chosen, weeklyDigest: false });

      // Both kept after a reload, and the browser's zone is not sent again over the one chosen.
      await page.reload();
      await expect(open).toHaveAccessibleName(`${t.open} ${t.off}`, { timeout: 30_000 });
      await open.click();
      await expect(zone).toHaveValue(c.chosen);
      await expect(toggle).not.toBeChecked();
      await shotInto(SHOTS, page, `digest-reloaded-${lang}-${c.device}`, 0);
      await dialog.getByRole('button', { name: t.cancel, exact: true }).click();
      await expect(dialog).toHaveCount(0);
      await expect(open).toBeFocused();
      expect(await digestOf(request, account)).toEqual({ timeZone: c.chosen, weeklyDigest: false });
    });
  });
}
