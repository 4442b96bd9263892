import { expect, test, type Page } from '@playwright/test';

import esChat from '../web/public/locales/es/chat.json';
import esLayout from '../web/public/locales/es/layout.json';
import esObjectives from '../web/public/locales/es/objectives.json';
import esTests from '../web/public/locales/es/tests.json';
import { useSession } from './support/account';
import { SPANISH_TEXT, englishIn, englishInSpanishCatalogues, englishWords } from './support/english-words';
import { shotInto } from './support/shots';
import { dataOf, sparkWithPdf } from './support/sparks';

/**
 * Issue 18 item 14: no English in the Spanish interface. A Spanish user's walk — signed out on /auth, then
 * home, a new Spark, a Spark with its PDF and its objectives, a test with a question answered and judged, the
 * Menu and Profile dropdowns, settings, profile, billing and deploy — reads each screen's visible text (and
 * the placeholders) and flags the words of the app's English texts that are not Spanish words of the app or
 * the spec's own (e2e/support/english-words.ts). The user's own data (e-mail, Spark name, PDF) is left out.
 * Screenshots: SPANISH_SHOTS_DIR.
 */

const SHOTS = process.env.SPANISH_SHOTS_DIR;
const NAME = 'Panadería Sol';
const PDF_TEXT = 'Abrimos de lunes a sábado de 8:00 a 20:00 y los domingos de 9:00 a 14:00. Hacemos pan de masa madre.';

async function visibleText(page: Page): Promise<string> {
  await page.locator('.page-loading, .boot-screen').first().waitFor({ state: 'detached' });
  return page.evaluate(`(() => {
    const placeholders = [...document.querySelectorAll('[placeholder]')]
      .filter((el) => el.checkVisibility())
      .map((el) => el.getAttribute('placeholder'));
    return [${SPANISH_TEXT}, ...placeholders].join('\\n');
  })()`);
}

test.use({ locale: 'es-ES', viewport: { width: 1440, height: 900 } });

test('the app knows the English words the issue found in Spanish screens', () => {
  const words = englishWords();
  for (const word of ['satisfactory', 'tests', 'free', 'support', 'welcome', 'customer', 'send', 'your'])
    expect(words.has(word), word).toBe(true);
  for (const word of ['spark', 'pdf', 'borrar', 'prueba', 'enviar']) expect(words.has(word), word).toBe(false);
});

test('the Spanish catalogues hold no English word of the app', () => {
  const found = englishInSpanishCatalogues();
  expect(found, found.map((f) => `"${f.word}" in "${f.text}"`).join('\n')).toEqual([]);
});

test('a Spanish walk shows no English words (issue 18 item 14)', async ({ page, request, context }) => {
  test.setTimeout(240_000);
  const found: { screen: string; word: string; line: string }[] = [];
  let own: string[] = [NAME, PDF_TEXT];
  const check = async (screen: string) => {
    await page.waitForTimeout(300);
    for (const hit of englishIn(await visibleText(page), own)) found.push({ screen, ...hit });
    await shotInto(SHOTS, page, `es-${screen}`, 0);
  };

  // — signed out —
  await page.goto('/auth');
  await expect(page.getByRole('button', { name: /Google/ })).toBeVisible();
  await check('auth-login');
  await page.getByRole('tab').nth(1).click();
  await check('auth-register');

  // — signed in, with a Spark whose PDF is read and a test —
  const { account, sparkId } = await sparkWithPdf(request, {
    lang: 'es',
    tag: 'spanish-words',
    name: NAME,
    greeting: '¡Hola! Soy el asistente de Panadería Sol.',
    pdf: 'horario.pdf',
    title: 'Horario de Panadería Sol',
    text: PDF_TEXT,
  });
  own = [...own, account.email, '¡Hola! Soy el asistente de Panadería Sol.', 'horario.pdf', 'Horario de Panadería Sol'];
  const created = await request.post(`/api/v1/sparks/${sparkId}/tests`, {
    headers: account.headers,
    data: { name: 'Horario', params: { documentId: null, waitResponse: true } },
  });
  const testId = (await dataOf<{ _id: string }>(created))._id;
  await useSession(context, account, 'es');

  await page.goto('/');
  await expect(page.getByRole('log')).toBeVisible();
  await check('home');

  const topBar = page.getByRole('navigation', { name: /./ }).first();
  await page.getByRole('button', { name: esLayout.menu.button }).click();
  await check('menu');
  await page.keyboard.press('Escape');
  await topBar.locator('.menu--profile > button').click();
  await check('profile-menu');
  await page.keyboard.press('Escape');

  await page.goto('/new-spark');
  await expect(page.getByRole('log')).toBeVisible();
  await check('new-spark');

  await page.goto(`/spark/${sparkId}`);
  await expect(page.getByRole('log').locator('.chat-msg').first()).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: esObjectives.label, exact: true }).click();
  await page.getByRole('complementary').getByRole('button', { expanded: false }).first().click();
  await check('spark-objectives');

  // — a test: a question answered, then judged —
  await page.goto(`/spark/${sparkId}/test/${testId}`);
  await expect(page.getByTestId('test-loading-overlay')).toHaveCount(0, { timeout: 15_000 });
  const box = page.getByRole('textbox', { name: esChat.composer.label });
  await box.fill('¿A qué hora abrís los domingos?');
  own.push('¿A qué hora abrís los domingos?');
  await page.getByRole('button', { name: esChat.composer.send }).click();
  await expect(page.locator('.chat-msg--assistant').last()).toContainText('9:00', { timeout: 30_000 });
  await check('test-answered');
  await page.getByRole('button', { name: esTests.toolbar.finish }).click();
  await check('test-feedback');
  await page
    .getByRole('dialog', { name: esTests.feedback.title })
    .getByRole('button', { name: esTests.feedback.yes, exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}`));
  await expect(page.locator('.chat-msg--human').last()).toBeVisible();
  await page.waitForTimeout(3000);
  await check('after-judging');

  for (const screen of ['settings', 'profile', 'billing', 'deploy']) {
    await page.goto(`/${screen}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForTimeout(1000);
    await check(screen);
  }

  expect(found, found.map((f) => `${f.screen}: "${f.word}" in "${f.line}"`).join('\n')).toEqual([]);
});
