import { expect, test } from '@playwright/test';

import enChat from '../web/public/locales/en/chat.json';
import esChat from '../web/public/locales/es/chat.json';
import { signUp, useSession } from './support/account';
import { shotInto } from './support/shots';

/**
 * Issue 17 item 4, without a language model (the embedded default): the owner describes the business in
 * one message in the Spark's chat; the builder shows what it understood, and on "yes" fills the Spark and
 * shows the instructions it wrote. Set BUILDER_SHOTS_DIR (e.g. /tmp/shots-builder) to look at the screens.
 */
const shotsDir = process.env.BUILDER_SHOTS_DIR;

const CASES = [
  {
    lang: 'en' as const,
    chat: enChat,
    text: 'We are Espiga, a bakery in Madrid, open Monday to Saturday 8 to 20, friendly tone',
    card: ['Your business', 'Espiga', 'A bakery in Madrid', 'warm and friendly', 'Open Monday to Saturday 8 to 20'],
    yes: "Yes, that's right",
    prompt: 'Opening hours: Open Monday to Saturday 8 to 20.',
  },
  {
    lang: 'es' as const,
    chat: esChat,
    text: 'Somos Espiga, una panadería en Madrid, abrimos de lunes a sábado de 8 a 20, tono cercano',
    card: [
      'Tu negocio',
      'Espiga',
      'Una panadería en Madrid',
      'cercano y amable',
      'Abrimos de lunes a sábado de 8 a 20',
    ],
    yes: 'Sí, es correcto',
    prompt: 'Horario de apertura: Abrimos de lunes a sábado de 8 a 20.',
  },
];

for (const c of CASES) {
  test(`the builder fills the business from one message after confirming it (${c.lang})`, async ({
    page,
    request,
    context,
  }) => {
    test.setTimeout(120_000);
    const account = await signUp(request, c.lang, 'builder-free-text');
    const created = await request.post('/api/v1/sparks', {
      data: { options: { language: c.lang } },
      headers: account.headers,
    });
    expect(created.status(), await created.text()).toBe(201);
    const sparkId = ((await created.json()) as { data: { _id: string } }).data._id;
    await useSession(context, account, c.lang);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/spark/${sparkId}`);
    const log = page.getByRole('log');
    const composer = page.getByRole('textbox', { name: c.chat.composer.label });
    await expect(composer).toBeEnabled();
    await composer.fill(c.text);
    const send = page.getByRole('button', { name: c.chat.composer.send });
    await expect(send).toBeEnabled({ timeout: 30_000 });
    await send.click();

    const card = log.locator('.chat-msg').filter({ hasText: c.card[0] }).last();
    for (const value of c.card) await expect(card).toContainText(value, { timeout: 30_000 });
    await shotInto(shotsDir, page, `builder-understood-${c.lang}`, 300);

    await log.getByRole('button', { name: c.yes }).last().click();
    await expect(log).toContainText(c.prompt, { timeout: 30_000 });
    await shotInto(shotsDir, page, `builder-instructions-${c.lang}`, 300);
    // On a phone the card's labels never run into their values ("Instrucciones" did; issue 18 item 4).
    await page.setViewportSize({ width: 390, height: 844 });
    const rows = log.locator('.chat-card__row');
    await expect(rows.last()).toBeVisible();
    for (const row of await rows.all()) {
      const overlap = await row.evaluate((el) => {
        const dt = el.querySelector('dt')!;
        const dd = el.querySelector('dd')!;
        // The label's words, not its box: a word wider than the column spills out of the box.
        const [a, b] = [dt.getBoundingClientRect(), dd.getBoundingClientRect()];
        const apart = a.right <= b.left || a.bottom <= b.top;
        return dt.scrollWidth > dt.clientWidth || !apart;
      });
      expect(overlap, `the label "${await row.locator('dt').textContent()}" runs into its value`).toBe(false);
    }
    await shotInto(shotsDir, page, `builder-instructions-phone-${c.lang}`, 300);

    const spark = await request.get(`/api/v1/sparks/${sparkId}`, { headers: account.headers });
    expect(((await spark.json()) as { data: { name: string } }).data.name).toBe('Espiga');
  });
}
