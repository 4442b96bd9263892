import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import PDFDocument from 'pdfkit';

import enChat from '../web/public/locales/en/chat.json';
import esChat from '../web/public/locales/es/chat.json';
import enEngine from '../libs/core/src/locales/en/engine.json';
import esEngine from '../libs/core/src/locales/es/engine.json';
import { signUp, useSession, type Account } from './support/account';
import { sendInComposer } from './support/composer';
import { shotInto } from './support/shots';
import { dataOf } from './support/sparks';

/**
 * What a Spark answers customers from a real business PDF (issue 29), in a test chat against the real api and
 * worker, in English on a 1440×900 desktop and in Spanish on a 390×844 phone: the closing time of a weekday
 * reasoned from a day range, a price asked with a typo, a question in the other language, and a question the
 * PDF does not cover, refused.
 */

test.use({ locale: 'en-US' });

const SHOTS = process.env.ANSWERS_SHOTS_DIR;

const PAGES = {
  en: [
    'ESPIGA BAKERY\n14 Calle Mayor, 28013 Madrid\nTel. 915 55 01 23 | hola@espiga.es\n\nOPENING HOURS\n' +
      'Monday to Friday .............. 7:30 to 20:30\nSaturday ...................... 8:00 to 14:30\n' +
      'Sunday ........................ closed\n\nPRICES\nSourdough loaf (800 g) ................ 4.20 EUR\n' +
      'Country loaf, stone-baked, sold whole, in halves or in quarters, ideal for the whole week ... 5.80 EUR\n' +
      'Butter croissant ...................... 1.60 EUR\n\nDELIVERY\nWe deliver within Madrid city (postcodes ' +
      '28001 to 28015) from Tuesday to Saturday, between 9:00 and 13:00. Delivery costs 3 EUR.',
  ],
  es: [
    'PANADERÍA ESPIGA\nCalle Mayor, 14 - 28013 Madrid\nTel. 915 55 01 23 - hola@espiga.es\n\nHORARIO\n' +
      'Lunes a viernes: de 7:00 a 14:00 y de 17:00 a 20:30\nSábado: de 8:00 a 14:30\nDomingo: cerrado\n\n' +
      'PRECIOS\nPan de masa madre (800 g) .............. 4,20 EUR\n' +
      'Hogaza de pueblo, cocida en horno de piedra, entera, por mitades o por cuartos, para toda la semana ... 5,80 EUR\n' +
      'Croissant de mantequilla ............... 1,60 EUR\n\nREPARTO\nRepartimos en Madrid capital (códigos ' +
      'postales 28001 a 28015) de martes a sábado, de 9:00 a 13:00. El envío cuesta 3 EUR.',
  ],
} as const;

/** The document as a word processor makes it: its lines kept, long lines wrapped. */
function businessPdf(pages: readonly string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ autoFirstPage: false, size: 'A4', margin: 60 });
    const parts: Buffer[] = [];
    doc.on('data', (c: Buffer) => parts.push(c));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
    for (const text of pages) {
      doc.addPage();
      doc.font('Helvetica').fontSize(11).text(text, { lineGap: 2 });
    }
    doc.end();
  });
}

async function businessSpark(request: APIRequestContext, account: Account, lang: 'en' | 'es') {
  const spark = await dataOf<{ _id: string }>(
    await request.post('/api/v1/sparks', {
      headers: account.headers,
      data: { name: 'Espiga', options: { language: lang } },
    }),
  );
  const name = `espiga-${lang}.pdf`;
  const uploaded = await request.post('/api/v1/bucket', {
    headers: account.headers,
    multipart: {
      sparkId: spark._id,
      name,
      file: { name, mimeType: 'application/pdf', buffer: await businessPdf(PAGES[lang]) },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBeLessThan(300);
  await expect
    .poll(
      async () =>
        (
          await dataOf<Array<{ status: string }>>(
            await request.get(`/api/v1/sparks/${spark._id}/documents`, { headers: account.headers }),
          )
        ).map((d) => d.status),
      { timeout: 60_000, message: 'the PDF is read' },
    )
    .toEqual(['completed']);
  const testCase = await dataOf<{ _id: string }>(
    await request.post(`/api/v1/sparks/${spark._id}/tests`, {
      headers: account.headers,
      data: { name: 'Customers', params: { documentId: null, waitResponse: true } },
    }),
  );
  return { sparkId: spark._id, testId: testCase._id };
}

const CASES = [
  {
    lang: 'en',
    view: { width: 1440, height: 900 },
    chat: enChat,
    asks: [
      ['What time do you close on Monday?', 'On Mondays we close at 20:30 — Monday to Friday: 7:30 to 20:30.'],
      ['how much is the sourdogh loaf', 'Sourdough loaf (800 g): 4.20 EUR.'],
      ['¿A qué hora abrís el sábado?', 'Los sábados abrimos a las 8:00 — Saturday: 8:00 to 14:30.'],
      ['Do you have wifi for customers?', enEngine.notCovered],
    ],
    cite: 'espiga-en, page 1',
  },
  {
    lang: 'es',
    view: { width: 390, height: 844 },
    chat: esChat,
    asks: [
      [
        '¿A qué hora cerráis el lunes?',
        'Los lunes cerramos a las 20:30 — Lunes a viernes: de 7:00 a 14:00 y de 17:00 a 20:30.',
      ],
      [
        'cuanto vale la ogaza de pueblo',
        'Hogaza de pueblo, cocida en horno de piedra, entera, por mitades o por cuartos, para toda la semana: 5,80 EUR.',
      ],
      ['What time do you open on Saturday?', 'On Saturdays we open at 8:00 — Sábado: de 8:00 a 14:30.'],
      ['¿Tenéis wifi para clientes?', esEngine.notCovered],
    ],
    cite: 'espiga-es, página 1',
  },
] as const;

for (const c of CASES) {
  test(`a test chat answers a bakery's customers from its PDF (${c.lang})`, async ({ page, context, request }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(c.view);
    const account = await signUp(request, c.lang, 'e2e.answers');
    const { sparkId, testId } = await businessSpark(request, account, c.lang);
    await useSession(context, account, c.lang);
    await page.goto(`/spark/${sparkId}/test/${testId}`);
    await expect(page.getByTestId('test-loading-overlay')).toHaveCount(0, { timeout: 15_000 });
    const log = page.locator('.chat-panel');
    const box = page.getByRole('textbox', { name: c.chat.composer.label });
    for (const [i, [question, reply]] of c.asks.entries()) {
      await sendInComposer(box, question);
      await expect(log.getByText(reply, { exact: true })).toBeVisible({ timeout: 30_000 });
      await shotInto(SHOTS, page, `${c.lang}-${i + 1}`, 300);
    }
    // Answers name their source, in the language of the question that was asked.
    await expect(log.getByText(c.cite).first()).toBeVisible();
    await shot(page, c.lang);
  });
}

async function shot(page: Page, lang: string) {
  await shotInto(SHOTS, page, `${lang}-chat`, 300);
}
