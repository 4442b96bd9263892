import { expect, test, type Page } from '@playwright/test';

import { signUp, useSession } from './support/account';
import { shotInto } from './support/shots';

/**
 * Issue 34 item 3: after switching language, what is on screen follows at once — the profile assistant's question,
 * card ("Your details", "Language: English") and live options turn into the new language without a reload, and
 * the options still do what they did. English → Spanish on a 1440×900 desktop, Spanish → English on a 390×844
 * phone. LANGUAGE_SHOTS_DIR=/tmp/... keeps screenshots of both moments.
 */
const SHOTS = process.env.LANGUAGE_SHOTS_DIR;

const texts = {
  en: {
    switchTo: 'English',
    question: 'These are your details. What would you like to change?',
    card: 'Your details',
    languageRow: 'Language',
    languageName: 'English',
    options: ['My first name', 'My last name', 'My language', "Nothing, it's fine"],
    askLanguage: /language/i,
  },
  es: {
    switchTo: 'Español',
    question: 'Estos son tus datos. ¿Qué quieres cambiar?',
    card: 'Tus datos',
    languageRow: 'Idioma',
    languageName: 'Español',
    options: ['Mi nombre', 'Mis apellidos', 'Mi idioma', 'Nada, está bien así'],
    askLanguage: /idioma/i,
  },
} as const;

const cases = [
  { from: 'en', to: 'es', device: 'desktop', viewport: { width: 1440, height: 900 } },
  { from: 'es', to: 'en', device: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** The profile card and the live options as they read in `lang`, and nothing of the other language. */
async function expectProfileIn(page: Page, lang: 'en' | 'es', other: 'en' | 'es'): Promise<void> {
  const t = texts[lang];
  const log = page.getByRole('log');
  await expect(log.locator('.chat-bubble--assistant').first()).toHaveText(t.question);
  await expect(log.getByText(texts[other].question)).toHaveCount(0);
  const card = page.getByRole('region', { name: t.card });
  await expect(card).toBeVisible();
  const row = card.locator('.chat-card__row', { hasText: t.languageRow });
  await expect(row.locator('dd')).toHaveText(t.languageName);
  await expect(page.getByRole('region', { name: texts[other].card })).toHaveCount(0);
  for (const option of t.options) await expect(log.getByRole('button', { name: option, exact: true })).toBeEnabled();
  for (const option of texts[other].options)
    await expect(log.getByRole('button', { name: option, exact: true })).toHaveCount(0);
}

for (const { from, to, device, viewport } of cases) {
  test(`the profile card and its options follow a switch from ${from} to ${to} at once (${device})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(90_000);
    const account = await signUp(request, from, 'lang');
    await useSession(context, account, from);
    await page.setViewportSize(viewport);
    await page.goto('/profile');
    await expectProfileIn(page, from, to);
    await expect(page.locator('.chat-bubble--typing')).toHaveCount(0, { timeout: 20_000 });
    await shotInto(SHOTS, page, `${device}-${from}-before`, 300);

    const reloads: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloads.push(frame.url());
    });
    await page
      .getByRole('group', { name: from === 'en' ? 'Language' : 'Idioma' })
      .getByRole('button', {
        name: texts[to].switchTo,
      })
      .first()
      .click();

    // At once: no reload, no new message; the same card and options now read in the new language.
    await expectProfileIn(page, to, from);
    expect(reloads).toEqual([]);
    await shotInto(SHOTS, page, `${device}-${to}-after`, 300);

    // The options still answer: "Mi idioma" / "My language" asks for the language, in the account's new one.
    await page.getByRole('log').getByRole('button', { name: texts[to].options[2], exact: true }).click();
    await expect(page.locator('.chat-bubble--human').last()).toHaveText(texts[to].options[2]);
    await expect(page.locator('.chat-bubble--assistant').last()).toHaveText(texts[to].askLanguage, { timeout: 20_000 });
    await expect(page.locator('.chat-bubble--typing')).toHaveCount(0, { timeout: 20_000 });
    await shotInto(SHOTS, page, `${device}-${to}-answered`, 300);
  });
}
