import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { expect, test } from '@playwright/test';

import enDeploy from '../web/public/locales/en/deploy.json';
import esDeploy from '../web/public/locales/es/deploy.json';
import { TEXTS } from '../web/src/widget/texts';
import { useSession } from './support/account';
import { fill } from './support/catalogues';
import { shotInto } from './support/shots';
import { dataOf, sparkWithPdf } from './support/sparks';

/**
 * The daily limit of a published Spark's widget (issue 30), in English and in Spanish: the owner sees it on /deploy
 * (200 a day by default) and lowers it to 1; a visitor on the owner's site gets one answer, then the widget's polite
 * daily-limit message and its e-mail form, never a raw error; /deploy then reads 1 of 1 used today.
 * DAILY_SHOTS_DIR=/tmp/shots-daily keeps screenshots.
 */
const SHOTS = process.env.DAILY_SHOTS_DIR;

const words = {
  en: {
    name: 'Northwind Rentals',
    greeting: 'Hi! Ask me about rentals.',
    pdf: 'Rentals.pdf',
    text: 'Rentals cost 25 dollars per day, helmet and lock included. Electric bikes cost 45 dollars per day.',
    question: 'How much is an electric bike per day?',
    again: 'And a normal bike?',
    answer: /45/,
    open: /Open the chat with Northwind Rentals/,
    placeholder: 'Type your question…',
    deploy: enDeploy.dailyLimit,
  },
  es: {
    name: 'Panadería Luna',
    greeting: '¡Hola! Pregúntame por el horario.',
    pdf: 'Horario.pdf',
    text: 'La Panadería Luna abre los domingos hasta las 14:00. De lunes a sábado abrimos de 8:00 a 20:30.',
    question: '¿Hasta qué hora abrís los domingos?',
    again: '¿Y los lunes?',
    answer: /14:00/,
    open: /Abrir el chat con Panadería Luna/,
    placeholder: 'Escribe tu pregunta…',
    deploy: esDeploy.dailyLimit,
  },
} as const;

async function hostPage(snippet: string) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A shop</title></head>
<body><h1>A small shop</h1>${snippet}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

for (const lang of ['en', 'es'] as const) {
  test(`the owner lowers the widget's daily limit on /deploy; past it visitors read a polite message and may leave an e-mail (${lang})`, async ({
    page,
    request,
    context,
    browser,
  }) => {
    test.setTimeout(240_000);
    const w = words[lang];
    const { account, sparkId } = await sparkWithPdf(request, {
      lang,
      tag: 'daily',
      name: w.name,
      greeting: w.greeting,
      pdf: w.pdf,
      title: w.name,
      text: w.text,
    });
    const deployment = `/api/v1/sparks/${sparkId}/deployment`;
    const { snippet } = await dataOf<{ snippet: string }>(
      await request.post(deployment, { headers: account.headers, data: {} }),
    );

    // /deploy: the limit, 200 by default, lowered to 1 by the owner.
    await useSession(context, account, lang);
    await page.goto(`/deploy?q=${encodeURIComponent(w.name)}`);
    const block = page.getByTestId('deploy-daily-limit');
    await expect(block).toContainText(w.deploy.title, { timeout: 90_000 });
    const input = block.getByLabel(w.deploy.label);
    await expect(input).toHaveValue('200');
    await expect(block.getByTestId('deploy-daily-used')).toHaveText(fill(w.deploy.used, { used: 0, limit: 200 }));
    await input.fill('0');
    await block.getByRole('button', { name: w.deploy.save }).click();
    await expect(block.getByRole('alert')).toContainText(lang === 'es' ? /entre 1 y 10\.000/ : /between 1 and 10,000/);
    await input.fill('1');
    await block.getByRole('button', { name: w.deploy.save }).click();
    await expect(block.getByRole('status')).toHaveText(fill(w.deploy.saved_one, { count: 1 }));
    await block.scrollIntoViewIfNeeded();
    await shotInto(SHOTS, page, `deploy-daily-limit-${lang}`, 300);

    const site = await hostPage(snippet);
    try {
      await dataOf(
        await request.post(`${deployment}/origins`, { headers: account.headers, data: { origin: site.origin } }),
      );
      const visitor = await browser.newPage({ locale: lang === 'es' ? 'es-ES' : 'en-US' });
      await visitor.goto(site.origin);
      await visitor.getByRole('button', { name: w.open }).click();
      const dialog = visitor.getByRole('dialog', { name: w.name });
      const box = dialog.getByPlaceholder(w.placeholder);
      await box.fill(w.question);
      await box.press('Enter');
      await expect(dialog.locator('.m.ai').last()).toContainText(w.answer, { timeout: 30_000 });

      // The widget takes the next question once the answer has finished (its Send is enabled again): an Enter
      // pressed while it still finishes is not sent (CI once pressed it in that moment and waited 4 minutes).
      await expect(dialog.locator('button.send')).toBeEnabled();
      const refused = visitor.waitForResponse((r) => r.url().endsWith('/stream'));
      await box.fill(w.again);
      await box.press('Enter');
      const res = await refused;
      expect(res.status()).toBe(429);
      expect(Number(res.headers()['retry-after'])).toBeGreaterThan(0);
      await expect(dialog).toContainText(TEXTS[lang].dailyLimit);
      await expect(dialog).not.toContainText(/DEPLOYMENT_DAILY_LIMIT|429|error/i);
      await expect(dialog).not.toContainText(TEXTS[lang].failed);
      await expect(dialog).not.toContainText(TEXTS[lang].tooMany.split('{')[0]);
      const email = dialog.getByLabel(TEXTS[lang].email);
      await expect(email).toBeVisible();
      await shotInto(SHOTS, visitor, `widget-daily-limit-${lang}`, 300);
      await email.fill(`visitor.daily.${lang}.${Date.now()}@example.com`);
      await dialog.getByRole('button', { name: TEXTS[lang].leaveEmail }).click();
      await expect(dialog).toContainText(TEXTS[lang].emailSaved);
      await visitor.close();

      // The owner reads today's count.
      await page.reload();
      await expect(page.getByTestId('deploy-daily-used')).toHaveText(fill(w.deploy.used, { used: 1, limit: 1 }), {
        timeout: 90_000,
      });
    } finally {
      await site.close();
    }
  });
}
