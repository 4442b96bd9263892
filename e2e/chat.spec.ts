import fs from 'node:fs';
import path from 'node:path';

import { expect, test, type Locator, type Page } from '@playwright/test';
import PDFDocument from 'pdfkit';

import enChat from '../web/public/locales/en/chat.json';
import esChat from '../web/public/locales/es/chat.json';
import enOnboarding from '../web/public/locales/en/onboarding.json';
import esOnboarding from '../web/public/locales/es/onboarding.json';
import { signUp, useSession } from './support/account';

/**
 * The chat (issue 7, part B) against the real api + worker, in English and in Spanish: the chat home's
 * welcome bubble and the main assistant (a help question), a Spark created by chatting on /new-spark, its
 * builder chat through the widgets (palette swatch, icon, preview) and a PDF upload through the attach
 * control, plus a picture renamed .pdf refused in the browser.
 */

test.use({ locale: 'en-US' });

const SHOTS = process.env.CHAT_SHOTS_DIR;

/** What the assistants say (libs/engine flows) and the names of their widgets' entries, per language. */
const words = {
  en: {
    chat: enChat,
    homeGreeting: 'I can help with anything about Sparks: pick an option or type your question.',
    emerald: /Emerald costs 90 euros per month/,
    question: 'Sure, ask me anything about Sparks',
    businessQuestion: 'What is your business called?',
    purpose: 'Answer customer questions',
    spanish: 'Spanish',
    goToSpark: 'Go to my Spark',
    builderIntro: 'Which name will your customers see?',
    nameSaved: 'Name saved: Lucía Bot.',
    describe: 'Describe your business in a sentence or two',
    tone: 'Friendly',
    uploadAsk: 'Now upload your documents (PDF, Word',
    skip: 'Skip for now',
    languageAsk: 'Which language will your Spark answer in?',
    palette: 'Ocean',
    icon: 'Robot',
    welcomeAsk: 'Which message will greet your visitors?',
    previewTitle: 'This is how your Spark will look',
    previewAsk: 'Do you like how it looks?',
    yes: 'Yes',
    testAsk: 'Time to test it.',
    read: /I've read lucia-carta\.pdf: 2 pages, \d+ characters\. It begins with: “Panadería Lucía — Carta de otoño”/,
    paletteAsk: 'Pick a colour palette for the widget.',
  },
  es: {
    chat: esChat,
    homeGreeting: 'Puedo ayudarte con todo lo de Sparks: elige una opción o escríbeme tu pregunta.',
    emerald: /Emerald cuesta 90 euros al mes/,
    question: 'Claro, pregúntame lo que quieras sobre Sparks',
    businessQuestion: '¿Cómo se llama tu negocio?',
    purpose: 'Responder preguntas de clientes',
    spanish: 'Español',
    goToSpark: 'Ir a mi Spark',
    builderIntro: '¿Qué nombre verán tus clientes?',
    nameSaved: 'Nombre guardado: Lucía Bot.',
    describe: 'Describe tu negocio en una o dos frases',
    tone: 'Cercano',
    uploadAsk: 'Ahora sube tus documentos (PDF, Word',
    skip: 'Saltar por ahora',
    languageAsk: '¿En qué idioma responderá tu Spark?',
    palette: 'Océano',
    icon: 'Robot',
    welcomeAsk: '¿Con qué mensaje saludará a tus visitantes?',
    previewTitle: 'Así se verá tu Spark',
    previewAsk: '¿Te gusta cómo queda?',
    yes: 'Sí',
    testAsk: 'Es hora de probarlo.',
    read: /He leído lucia-carta\.pdf: 2 páginas, \d+ caracteres\. Empieza por: “Panadería Lucía — Carta de otoño”/,
    paletteAsk: 'Elige una paleta de colores para el widget.',
  },
} as const;

/** A 2-page PDF in Spanish, accents included. */
function spanishPdf(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', info: { Title: 'Carta de Panadería Lucía' } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(20).text('Panadería Lucía — Carta de otoño');
    doc.moveDown();
    doc
      .fontSize(12)
      .text(
        'Abrimos de lunes a sábado, de 8:00 a 20:00. Los domingos y festivos cerramos a las 14:00. ' +
          'Nuestro pan de masa madre se hornea cada mañana con harina ecológica de Castilla y León.',
      );
    doc.moveDown();
    doc.text('Precios: barra rústica 1,80 €; hogaza de centeno 4,50 €; cruasán de mantequilla 1,60 €.');
    doc.addPage();
    doc.fontSize(16).text('Encargos y alergias');
    doc.moveDown();
    doc
      .fontSize(12)
      .text(
        'Aceptamos encargos de tartas con cuarenta y ocho horas de antelación. Ofrecemos pan sin gluten los ' +
          'miércoles y viernes. Pregunte por los alérgenos: leche, huevo, sésamo y frutos secos.',
      );
    doc.end();
  });
}

/** A 1×1 PNG: a picture, whatever its name says. */
const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Screenshots at 1440×900 and 390×844 into CHAT_SHOTS_DIR (e.g. /tmp/shots-chat). */
async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  // Let the reply finish showing (the typing dots leave, the last message fades in).
  await expect(page.locator('.chat-bubble--typing')).toHaveCount(0);
  await page.waitForTimeout(300);
  const original = page.viewportSize() ?? { width: 1440, height: 900 };
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(SHOTS, `${name}-desktop.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(SHOTS, `${name}-mobile.png`) });
  await page.setViewportSize(original);
}

/** The assistant's bubbles in the conversation. */
const assistant = (log: Locator, text: string | RegExp) =>
  log.locator('.chat-msg--assistant').filter({ hasText: text });

async function say(page: Page, text: string) {
  const box = page
    .getByRole('textbox', { name: words.en.chat.composer.label })
    .or(page.getByRole('textbox', { name: words.es.chat.composer.label }));
  await expect(page.getByRole('button', { name: /^(Send|Enviar)$/ })).toBeDisabled(); // nothing typed yet
  await box.fill(text);
  // The composer takes a new message once the previous reply has finished arriving.
  const send = page.getByRole('button', { name: /^(Send|Enviar)$/ });
  await expect(send).toBeEnabled({ timeout: 20_000 });
  await send.click();
}

for (const lang of ['en', 'es'] as const) {
  const w = words[lang];
  const t = w.chat;

  test(`chat home, a Spark created by chatting, its builder and a PDF upload (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(180_000);
    // The assistant's turns are timed as they come (the real clock): this walk watches them arrive.
    const account = await signUp(request, lang, 'e2e.chat');
    await useSession(context, account, lang, { realClock: true });
    const { email } = account;

    // — /onBoarding (where a new account lands): start the tour, look at its first stop, skip it —
    const onboarding = lang === 'es' ? esOnboarding : enOnboarding;
    await page.goto('/onBoarding');
    await page.getByRole('button', { name: onboarding.intro.start }).click();
    const tour = page.locator('.driver-popover');
    await expect(tour.locator('.driver-popover-title')).toHaveText(onboarding.steps.menu.title, { timeout: 20_000 });
    await tour.getByRole('button', { name: onboarding.buttons.skip }).first().click();
    await expect(tour).toHaveCount(0);

    // — / : the welcome bubble and the main assistant's greeting —
    await expect(page).toHaveURL(/\/$/);
    const log = page.getByRole('log');
    await expect(log).toHaveAttribute('aria-live', 'polite');
    const bubble = page.locator('.welcome-bubble');
    // Greeted once, by the part of the e-mail before @ (no first name yet), never by the raw address (issue 18 item 13).
    await expect(bubble.getByRole('heading', { level: 2 })).toHaveText(
      t.welcome.greeting.replace('{{name}}', email.split('@')[0]),
    );
    await expect(page.locator('main a[href^="mailto:"]')).toHaveCount(0);
    expect((await bubble.boundingBox())?.width).toBe(398);
    const actions = bubble.getByRole('group', { name: t.welcome.actions });
    await expect(actions.getByRole('link', { name: t.welcome.createSpark })).toHaveAttribute('href', '/new-spark');
    await expect(actions.getByRole('link', { name: t.welcome.changeInfo })).toHaveAttribute('href', '/profile');
    await expect(actions.getByRole('link', { name: /Spark:/ })).toHaveCount(0); // no Sparks yet
    await expect(assistant(log, w.homeGreeting)).toBeVisible();
    await expect(log.getByText('inicio', { exact: true })).toHaveCount(0); // the start keyword is hidden
    const stored = await page.evaluate<string | null>("localStorage.getItem('sys_spark_conversations')");
    expect(JSON.parse(stored ?? '{}')).toHaveProperty('main.sessionId');
    await shoot(page, `${lang}-01-home`);

    // a help question, answered from the built-in help
    await say(page, '¿Cuánto cuesta el plan Emerald?');
    await expect(log.locator('.chat-msg--human').filter({ hasText: '¿Cuánto cuesta el plan Emerald?' })).toBeVisible();
    await expect(assistant(log, w.emerald)).toBeVisible();
    await expect(log.locator('.chat-msg--human .chat-msg__date').last()).toContainText(lang === 'es' ? 'Hoy' : 'Today');
    await shoot(page, `${lang}-02-home-help`);

    // "I have a question" sends the canned question
    await actions.getByRole('button', { name: t.welcome.question }).click();
    await expect(log.locator('.chat-msg--human').filter({ hasText: t.welcome.questionText })).toBeVisible();
    await expect(assistant(log, w.question)).toBeVisible();

    // a reload resumes the conversation instead of starting again
    await page.reload();
    await expect(assistant(log, w.emerald)).toBeVisible();
    await expect(assistant(log, w.homeGreeting)).toHaveCount(1);

    // — /new-spark: create a Spark by chatting —
    await actions.getByRole('link', { name: t.welcome.createSpark }).click();
    await expect(page).toHaveURL(/\/new-spark$/);
    await expect(assistant(log, w.businessQuestion)).toBeVisible();
    await say(page, 'Panadería Lucía');
    await expect(assistant(log, 'Panadería Lucía')).toBeVisible();
    await say(page, 'Una panadería de barrio en Valladolid con pan de masa madre y repostería casera.');
    await log.getByRole('button', { name: w.purpose }).click();
    await expect(log.getByRole('button', { name: w.purpose })).toBeDisabled(); // an older widget
    // The assistant got the option's value; the person reads its label.
    await expect(log.locator('.chat-bubble--human').filter({ hasText: w.purpose })).toBeVisible();
    await expect(page.getByRole('textbox', { name: t.composer.label })).toBeFocused();
    // keyboard only: from the message box back to the newest widget, then Enter
    await expect(log.getByRole('button', { name: w.spanish })).toBeEnabled();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(log.getByRole('button', { name: w.spanish })).toBeFocused();
    await page.keyboard.press('Enter');
    const goToSpark = log.getByRole('button', { name: w.goToSpark });
    await expect(goToSpark).toBeEnabled();
    await shoot(page, `${lang}-03-new-spark-created`);
    await goToSpark.click();
    await expect(page).toHaveURL(/\/spark\/[0-9a-f-]{36}$/);
    const sparkId = /\/spark\/([0-9a-f-]{36})$/.exec(page.url())![1];

    // — the builder chat of the new Spark (issue 18) —
    // What /new-spark answered (name, description, language) is not asked again: the tone comes first.
    const tone = log.getByRole('button', { name: w.tone });
    await expect(tone).toBeEnabled();
    await expect(assistant(log, w.builderIntro)).toHaveCount(0);
    await expect(assistant(log, w.describe)).toHaveCount(0);
    await tone.click();
    // The answer stays marked; the other tones cannot be used any more.
    await expect(log.getByRole('button', { name: w.tone, pressed: true })).toBeDisabled();
    await expect(assistant(log, w.uploadAsk)).toBeVisible();
    await shoot(page, `${lang}-04-builder-tone`);

    // — upload a PDF through the attach control: the builder goes on by itself and says what it read —
    const pdf = await spanishPdf();
    // Hold the upload a moment so that its "Uploading..." state can be seen.
    await page.route('**/api/v1/bucket', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    await page.getByRole('button', { name: t.attach.button }).click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('menuitem', { name: t.attach.addFiles }).click();
    await (await chooser).setFiles({ name: 'lucia-carta.pdf', mimeType: 'application/pdf', buffer: pdf });
    const confirm = page.getByRole('dialog', { name: t.dialogs.confirmUpload.title });
    await expect(confirm).toContainText('lucia-carta.pdf');
    await shoot(page, `${lang}-05-upload-confirm`);
    await confirm.getByRole('button', { name: t.dialogs.accept }).click();
    await expect(log.getByText(t.panel.uploading)).toBeVisible();
    const uploaded = t.message.uploaded.replace('{{document}}', 'lucia-carta.pdf');
    await expect(log.locator('.chat-bubble--upload').filter({ hasText: uploaded })).toBeVisible({ timeout: 20_000 });
    await expect(assistant(log, w.read)).toBeVisible({ timeout: 30_000 });
    // Nothing typed: the next question comes (the language was given in /new-spark, so the palettes).
    await expect(assistant(log, w.paletteAsk)).toBeVisible({ timeout: 20_000 });
    await expect(log.getByRole('button', { name: w.skip })).toBeDisabled();
    await expect(assistant(log, w.languageAsk)).toHaveCount(0);
    await shoot(page, `${lang}-06-upload-read`);
    const documents = await request.get(`/api/v1/sparks/${sparkId}/documents`, {
      headers: { Authorization: `Bearer ${await page.evaluate<string>("localStorage.getItem('access_token')")}` },
    });
    const docs = ((await documents.json()) as { data: Array<{ name: string; status: string; pages: number }> }).data;
    expect(docs).toEqual([expect.objectContaining({ name: 'lucia-carta.pdf', status: 'completed', pages: 2 })]);

    const palettes = log.getByRole('group', { name: t.widgets.colorPalette });
    await expect(palettes.getByRole('button', { name: w.palette })).toBeEnabled();
    await palettes.getByRole('button', { name: w.palette }).click();
    await expect(palettes.getByRole('button', { name: w.palette, pressed: true })).toBeVisible();
    const icons = log.getByRole('group', { name: t.widgets.iconSelector });
    await expect(icons.getByRole('button', { name: w.icon })).toBeEnabled();
    await expect(icons.locator('svg[data-icon]')).toHaveCount(6);
    // The icons wear the palette just picked (Ocean), not the app's violet.
    await expect(icons.locator('.chat-icon-choice__badge').first()).toHaveCSS('color', 'rgb(11, 107, 203)');
    // The drawings themselves too, not only their badges (issue 18 item 5: they stayed violet).
    for (const drawing of await icons.locator('svg[data-icon]').all()) {
      await expect(drawing).toHaveCSS('color', 'rgb(11, 107, 203)');
    }
    await shoot(page, `${lang}-07-builder-icons`);
    // On a phone the floating "+" and chat buttons leave the answers uncovered (issue 18 item 11).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.chat-log').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const floating = await page.locator('.floating-buttons').boundingBox();
    const lastIcon = await icons.locator('.chat-icon-choice').last().boundingBox();
    expect(floating && lastIcon && lastIcon.x + lastIcon.width <= floating.x).toBe(true);
    await page.setViewportSize({ width: 1440, height: 900 });
    await icons.getByRole('button', { name: w.icon }).click();
    await expect(assistant(log, w.welcomeAsk)).toBeVisible();
    // The chosen icon is marked in the palette's colour, not the app's violet.
    const chosenIcon = icons.getByRole('button', { name: w.icon, pressed: true });
    await expect(chosenIcon).toHaveCSS('border-top-color', 'rgb(11, 107, 203)');
    await expect(chosenIcon).toHaveCSS('box-shadow', /rgb\(11, 107, 203\)/);
    await say(page, '¡Hola! Soy el asistente de Panadería Lucía. ¿En qué te ayudo?');
    const preview = log.locator('figure.chat-preview');
    await expect(preview).toContainText(w.previewTitle);
    // Said once: the caption, not the message above it too.
    await expect(log.locator('.chat-bubble--assistant').filter({ hasText: w.previewTitle })).toHaveCount(0);
    await expect(assistant(log, w.previewAsk)).toBeVisible();
    await expect(preview).toContainText('Panadería Lucía');
    await expect(preview).toContainText('¡Hola! Soy el asistente de Panadería Lucía. ¿En qué te ayudo?');
    await expect(preview.locator('svg[data-icon="robot"]').first()).toBeVisible();
    await expect(preview.locator('.chat-preview__header')).toHaveCSS('background-color', 'rgb(11, 107, 203)');
    await shoot(page, `${lang}-08-builder-preview`);
    await log.getByRole('button', { name: w.yes, exact: true }).click();
    await expect(assistant(log, w.testAsk)).toBeVisible();
    // A window made narrow enough for the phone layout (its header grows to two rows) keeps the
    // composer at the bottom: only the conversation scrolls, never the page body around it.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.setViewportSize({ width: 390, height: 844 });
    const composer = page.locator('.chat-panel__composer');
    await expect
      .poll(async () => {
        const box = await composer.boundingBox();
        return box && Math.round(844 - (box.y + box.height));
      })
      .toBe(0);
    expect(await page.locator('.chat-page__body').evaluate((el) => el.scrollTop)).toBe(0);
    await page.setViewportSize({ width: 1440, height: 900 });

    // — a picture renamed .pdf is refused in the browser —
    await page.getByRole('button', { name: t.attach.button }).click();
    const chooser2 = page.waitForEvent('filechooser');
    await page.getByRole('menuitem', { name: t.attach.addFiles }).click();
    await (await chooser2).setFiles({ name: 'foto.pdf', mimeType: 'application/pdf', buffer: PNG_BYTES });
    const incorrect = page.getByRole('alertdialog', { name: t.dialogs.format.title });
    await expect(incorrect).toContainText(t.dialogs.format.text);
    await shoot(page, `${lang}-09-incorrect-format`);
    await expect(incorrect.getByRole('button', { name: t.dialogs.understood })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(incorrect).toHaveCount(0);
    await expect(page.getByRole('button', { name: t.attach.button })).toBeFocused();

    // — back home: the welcome bubble now offers the newest Spark —
    await page.goto('/');
    const change = page
      .locator('.welcome-bubble')
      .getByRole('link', { name: t.welcome.changeSpark.replace('{{name}}', 'Panadería Lucía') });
    await expect(change).toHaveAttribute('href', `/spark/${sparkId}`);
    await shoot(page, `${lang}-10-home-with-spark`);
  });
}
