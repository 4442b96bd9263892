import { expect, test, type Locator, type Page } from '@playwright/test';

import enFlows from '../libs/core/src/locales/en/flows.json';
import esFlows from '../libs/core/src/locales/es/flows.json';
import enChat from '../web/public/locales/en/chat.json';
import enDeploy from '../web/public/locales/en/deploy.json';
import esChat from '../web/public/locales/es/chat.json';
import esDeploy from '../web/public/locales/es/deploy.json';
import { signUp, useSession } from './support/account';
import { shotInto } from './support/shots';
import { dataOf } from './support/sparks';

/**
 * Issue 31, as an owner talks: a trial account builds a Spark from its chat with everyday replies ("looks good",
 * "vale, perfecto", "déjalo igual", "mejor verde", "change the name to Espiga"), none of which becomes a value it was
 * not meant as, and publishes it from the builder's own Publish button (the trial publishes one Spark). In both
 * languages, on a desktop (1440×900) and a phone (390×844). Set BUILDER_SHOTS_DIR (e.g. /tmp/shots-colloquial) to
 * look at the screens.
 */
const shotsDir = process.env.BUILDER_SHOTS_DIR;
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const CASES = {
  en: {
    chat: enChat,
    deploy: enDeploy,
    flows: enFlows,
    nameAsk: 'Which name will your customers see?',
    told: 'We are Sol, a bakery in Madrid, open Monday to Saturday 8 to 20, friendly tone',
    agree: 'looks good',
    rename: 'change the name to Espiga',
    renamed: 'Done: the name is now “Espiga”.',
    uploadAsk: 'Now upload your documents (PDF, Word',
    skip: 'skip for now',
    languageAsk: 'Which language will your Spark answer in?',
    language: 'English please',
    paletteAsk: 'Pick a colour palette for the widget.',
    green: 'make it green',
    iconAsk: 'Pick an icon.',
    icon: 'the robot one',
    greetingAsk: 'Which message will greet your visitors?',
    keep: 'leave it as is',
    previewAsk: 'Do you like how it looks?',
    like: 'looks good 👍',
    testAsk: "Time to test it. I'll create a test",
    skipTest: 'skip',
    judgeAsk: 'Open the test, ask your questions',
    ready: '“Espiga” is ready to be published on your website!',
    publish: 'Publish Espiga',
  },
  es: {
    chat: esChat,
    deploy: esDeploy,
    flows: esFlows,
    nameAsk: '¿Qué nombre verán tus clientes?',
    told: 'Somos Sol, una panadería en Madrid, abrimos de lunes a sábado de 8 a 20, tono cercano',
    agree: 'vale, perfecto',
    rename: 'cambia el nombre a Espiga',
    renamed: 'Hecho: el nombre ahora es «Espiga».',
    uploadAsk: 'Ahora sube tus documentos (PDF, Word',
    skip: 'luego',
    languageAsk: '¿En qué idioma responderá tu Spark?',
    language: 'en español',
    paletteAsk: 'Elige una paleta de colores para el widget.',
    green: 'mejor verde',
    iconAsk: 'Elige un icono.',
    icon: 'el robot',
    greetingAsk: '¿Con qué mensaje saludará a tus visitantes?',
    keep: 'déjalo igual',
    previewAsk: '¿Te gusta cómo queda?',
    like: 'me gusta 👍',
    testAsk: 'Es hora de probarlo.',
    skipTest: 'saltar',
    judgeAsk: 'Abre la prueba, haz tus preguntas',
    ready: '¡«Espiga» está listo para publicarse en tu web!',
    publish: 'Publicar Espiga',
  },
} as const;

/** The assistant's bubbles in the conversation that hold `text`. */
const assistant = (log: Locator, text: string) => log.locator('.chat-msg--assistant').filter({ hasText: text });

for (const lang of ['en', 'es'] as const) {
  for (const device of ['desktop', 'phone'] as const) {
    const c = CASES[lang];

    test(`an owner builds a Spark with everyday replies and publishes it on the trial (${lang}, ${device})`, async ({
      page,
      request,
      context,
    }) => {
      test.setTimeout(240_000);
      const account = await signUp(request, lang, `colloquial-${device}`);
      const spark = await dataOf<{ _id: string; options: { initialMessage: string } }>(
        await request.post('/api/v1/sparks', { data: { options: { language: lang } }, headers: account.headers }),
      );
      const sparkOf = async () =>
        dataOf<{ name: string; options: Record<string, unknown> & { theme?: { palette?: { name: string } } } }>(
          await request.get(`/api/v1/sparks/${spark._id}`, { headers: account.headers }),
        );
      await useSession(context, account, lang);
      await page.setViewportSize(device === 'phone' ? PHONE : DESKTOP);
      await page.goto(`/spark/${spark._id}`);
      const log = page.getByRole('log');
      const look = async (name: string) => {
        await expect(page.locator('.chat-bubble--typing')).toHaveCount(0, { timeout: 20_000 });
        await shotInto(shotsDir, page, `colloquial-${lang}-${device}-${name}`, 300);
      };
      /** Sends a reply once the composer takes it, and waits for the assistant's `then`. */
      const reply = async (p: Page, text: string, then: string) => {
        await p.getByRole('textbox', { name: c.chat.composer.label }).fill(text);
        const send = p.getByRole('button', { name: c.chat.composer.send, exact: true });
        await expect(send).toBeEnabled({ timeout: 20_000 });
        await send.click();
        await expect(assistant(log, then).last()).toBeVisible({ timeout: 30_000 });
      };

      // — the business in one message, and an everyday yes to what was understood —
      await expect(assistant(log, c.nameAsk)).toBeVisible({ timeout: 30_000 });
      await reply(page, c.told, c.flows.understood);
      await expect(log.locator('.chat-msg').filter({ hasText: c.flows.understoodTitle }).last()).toContainText('Sol');
      await look('01-understood');
      await reply(page, c.agree, c.uploadAsk);
      await expect(assistant(log, c.flows.understoodSaved.slice(0, 25))).toBeVisible();
      expect((await sparkOf()).name).toBe('Sol');
      await look('02-agreed');

      // — "change the name to Espiga" while it waits for documents: done, and its instructions say so —
      await reply(page, c.rename, c.renamed);
      const renamed = await sparkOf();
      expect(renamed.name).toBe('Espiga');
      expect(renamed.options.sysPrompt).toMatch(/^(You are|Eres) Espiga,/);
      await expect(assistant(log, c.flows.waiting.slice(0, 20))).toHaveCount(0);
      await look('03-renamed');

      // — on: no documents for now, the language, "mejor verde", the robot, the greeting kept —
      await reply(page, c.skip, c.languageAsk);
      await reply(page, c.language, c.paletteAsk);
      await reply(page, c.green, c.iconAsk);
      expect((await sparkOf()).options.theme?.palette?.name).toBe('forest');
      await reply(page, c.icon, c.greetingAsk);
      await reply(page, c.keep, c.flows.keptGreeting);
      expect((await sparkOf()).options.initialMessage).toBe(spark.options.initialMessage);
      await expect(log.locator('figure.chat-preview').last()).toContainText(spark.options.initialMessage);
      await look('04-preview');

      // — the preview liked, the test skipped: the trial is offered Publish —
      await reply(page, c.like, c.testAsk);
      await reply(page, c.skipTest, c.judgeAsk);
      await reply(page, c.skipTest, c.ready);
      const publish = log.getByRole('button', { name: c.publish });
      await expect(publish).toBeEnabled();
      await look('05-publish-offered');

      // — published from the builder's button, on the trial —
      await publish.click();
      await expect(page).toHaveURL(/\/deploy/);
      const panel = page.getByTestId('deploy-panel');
      if (device === 'phone') await page.getByRole('button', { name: c.deploy.page.openPanel }).click();
      await expect(panel.getByRole('combobox').locator('option:checked')).toHaveText('Espiga', { timeout: 60_000 });
      await panel.getByTestId('deploy-publish').click();
      await expect(panel.getByTestId('deploy-snippet')).toContainText('data-token="dt_', { timeout: 30_000 });
      await expect(panel.getByRole('alert')).toHaveCount(0);
      await look('06-published');
      const view = await dataOf<{ published: boolean }>(
        await request.get(`/api/v1/sparks/${spark._id}/deployment`, { headers: account.headers }),
      );
      expect(view.published).toBe(true);
    });
  }
}
