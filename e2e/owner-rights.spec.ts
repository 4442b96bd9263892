import fs from 'node:fs';

import { expect, test, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';

import enPrivacy from '../web/public/locales/en/privacy.json';
import esPrivacy from '../web/public/locales/es/privacy.json';
import { E2E_PASSWORD, useSession } from './support/account';
import { fill } from './support/catalogues';
import { shotInto } from './support/shots';
import { sparkWithPdf } from './support/sparks';

/**
 * The owner's data (issue 30), in English on a desktop (1440×900) and in Spanish on a phone (390×844): the profile's
 * "Your data" downloads the account as a zip and deletes the account after the typed confirmation.
 * PRIVACY_SHOTS_DIR=/tmp/shots-privacy keeps screenshots.
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
}
