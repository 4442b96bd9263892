import { expect, test, type Page } from '@playwright/test';

import enChat from '../web/public/locales/en/chat.json';
import esChat from '../web/public/locales/es/chat.json';
import { makeDocx } from '../test/integration/fixtures/docx';
import { signUp, useSession } from './support/account';
import { sendInComposer } from './support/composer';
import { shotInto } from './support/shots';
import { sparkWithTest } from './support/sparks';

/**
 * Word and text documents beside PDFs (issue 32 item 5; docs/decisions.md, "Uploads: Word and text beside PDF"), in
 * English and Spanish against the real api + worker: the owner attaches a .docx and a .txt in the Spark's chat, the
 * chat says it read each one, and a test of the Spark answers from both, citing them by name.
 * UPLOAD_SHOTS_DIR=/tmp/shots keeps screenshots.
 */

const SHOTS = process.env.UPLOAD_SHOTS_DIR;
const shot = (page: Page, name: string) => shotInto(SHOTS, page, name, 300);

const cases = {
  en: {
    chat: enChat,
    docx: {
      name: 'Bakery menu.docx',
      paragraphs: ['Bakery menu', 'A sourdough loaf costs 4.50 euros. Croissants cost 1.80 euros each.'],
    },
    txt: { name: 'Delivery.txt', text: 'Delivery\n\nWe deliver to offices within 5 km on weekdays before 10:00.\n' },
    read: "I've read",
    questions: [
      { text: 'How much is a sourdough loaf?', fact: '4.50 euros', source: 'Bakery menu' },
      { text: 'Do you deliver to offices?', fact: 'within 5 km', source: 'Delivery' },
    ],
  },
  es: {
    chat: esChat,
    docx: {
      name: 'Carta de la panadería.docx',
      paragraphs: ['Carta', 'La barra de masa madre cuesta 4,50 euros. Los cruasanes cuestan 1,80 euros.'],
    },
    txt: { name: 'Envíos.txt', text: 'Envíos\n\nHacemos envíos a Canarias en cinco días hábiles.\n' },
    read: 'He leído',
    questions: [
      { text: '¿Cuánto cuesta la barra de masa madre?', fact: '4,50 euros', source: 'Carta de la panadería' },
      { text: '¿Cuánto tardan los envíos a Canarias?', fact: 'cinco días hábiles', source: 'Envíos' },
    ],
  },
} as const;

for (const lang of ['en', 'es'] as const) {
  const c = cases[lang];
  const t = c.chat;

  test(`a Word document and a text file uploaded in the chat are read and answered from (${lang})`, async ({
    page,
    request,
    context,
  }) => {
    test.setTimeout(150_000);
    const account = await signUp(request, lang, 'formats');
    const { spark, testCase } = await sparkWithTest(request, account, lang === 'en' ? 'Bakery' : 'Panadería', lang);
    await useSession(context, account, lang);

    await page.goto(`/spark/${spark._id}`);
    const attach = page.getByRole('button', { name: t.attach.button });
    await expect(attach).toBeVisible({ timeout: 15_000 });
    const log = page.locator('.chat-panel');
    async function upload(file: { name: string; mimeType: string; buffer: Buffer }) {
      await attach.click();
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('menuitem', { name: t.attach.addFiles }).click();
      await (await chooser).setFiles(file);
      await page
        .getByRole('dialog', { name: t.dialogs.confirmUpload.title })
        .getByRole('button', { name: t.dialogs.accept })
        .click();
      await expect(
        log.locator('.chat-bubble--assistant').filter({ hasText: c.read }).filter({ hasText: file.name }),
      ).toBeVisible({ timeout: 60_000 });
    }

    await upload({
      name: c.docx.name,
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: makeDocx([...c.docx.paragraphs]),
    });
    await upload({ name: c.txt.name, mimeType: 'text/plain', buffer: Buffer.from(c.txt.text, 'utf8') });
    await shot(page, `${lang}-formats-01-read`);

    await page.goto(`/spark/${spark._id}/test/${testCase._id}`);
    const box = page.getByRole('textbox', { name: t.composer.label });
    for (const question of c.questions) {
      await sendInComposer(box, question.text);
      const answer = log.locator('.chat-bubble--assistant').filter({ hasText: question.fact });
      await expect(answer).toBeVisible({ timeout: 60_000 });
      await expect(answer).toContainText(question.source);
    }
    await shot(page, `${lang}-formats-02-answered`);
  });
}
