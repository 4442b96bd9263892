import { expect, test, type Page } from '@playwright/test';
import PDFDocument from 'pdfkit';

import enChat from '../web/public/locales/en/chat.json';
import { signUp, useSession, type Account } from './support/account';
import { sendInComposer } from './support/composer';
import { shotInto } from './support/shots';
import { dataOf } from './support/sparks';

/**
 * Names and texts users control, rendered by the real app (issue 13): a Spark whose name and greeting, a
 * document whose name and whose text hold a tag with a script, a `javascript:` link and an image on another
 * origin. The builder chat, the "show instructions" card, the document's "read" message, the test's greeting
 * and an answer quoting the PDF must show them as typed: no script runs, no `<img>` or `javascript:` link is
 * made, and the browser asks nothing of any origin but the app's.
 */

test.use({ locale: 'en-US' });

const SHOTS = process.env.HOSTILE_SHOTS_DIR;
const TAG = '<img src=x onerror=window.__pwned=1>';
const LINK = '[x](javascript:window.__pwned=1)';
const IMAGE = '![t](http://127.0.0.2:9/x.png)';
const HOSTILE = `${TAG} ${LINK} ${IMAGE}`;
const NAME = `Bakery ${HOSTILE}`;
const GREETING = `Welcome! ${HOSTILE} *not bold*`;
const DOCUMENT = `${LINK} ${TAG}.pdf`;
const FACT = `We open at nine every day ${HOSTILE} and close at eight.`;

/** A one-page English PDF whose text holds the hostile strings. */
function hostilePdf(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4' });
    const parts: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => parts.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
    doc.fontSize(12).text(FACT).moveDown().text('Our bread is baked every morning with sourdough.');
    doc.end();
  });
}

/** What the page would show if anything hostile had become markup. */
async function expectNothingRan(page: Page) {
  expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
  const found = await page.evaluate(`(() => ({
    images: [...document.querySelectorAll('img')].map((i) => i.getAttribute('src')),
    scripts: [...document.querySelectorAll('[href], [src], [action], [formaction]')]
      .flatMap((e) => ['href', 'src', 'action', 'formaction'].map((a) => e.getAttribute(a) ?? ''))
      .filter((v) => /^\\s*(javascript|data|vbscript):/i.test(v)),
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).length,
  }))()`);
  const { images, ...rest } = found as { images: Array<string | null>; scripts: string[]; handlers: number };
  expect(images.filter((src) => src === 'x' || (src ?? '').includes('127.0.0.2'))).toEqual([]);
  expect(rest).toEqual({ scripts: [], handlers: 0 });
}

test('hostile names and PDF text show as typed: no script, no image, no request elsewhere', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const origin = new URL(baseURL!).origin;
  const elsewhere: string[] = [];
  context.on('request', (req) => {
    const url = req.url();
    if (/^(data|blob):/.test(url)) return;
    if (new URL(url).origin !== origin) elsewhere.push(`${req.method()} ${url}`);
  });
  page.on('dialog', (dialog) => {
    elsewhere.push(`dialog ${dialog.message()}`);
    void dialog.dismiss();
  });

  const account: Account = await signUp(request, 'en', 'hostile');
  const spark = await dataOf<{ _id: string; name: string }>(
    await request.post('/api/v1/sparks', {
      headers: account.headers,
      data: { name: NAME, options: { initialMessage: GREETING, language: 'en' } },
    }),
  );
  expect(spark.name).toBe(NAME);
  await useSession(context, account, 'en');

  // — the builder chat: the name in its messages, then the instructions card —
  await page.goto(`/spark/${spark._id}`);
  const log = page.locator('.chat-panel');
  // Messages as the markdown renderer drew them (while it loads, a message shows as plain text).
  const rendered = log.locator('.chat-md:not(.chat-md--plain)');
  await expect(rendered.getByText(`Let's get “${NAME}” ready.`, { exact: false })).toBeVisible({ timeout: 30_000 });
  await expect(rendered.getByText(`Which name will your customers see? It is called “${NAME}” now.`)).toBeVisible();
  // The builder offers to keep the name (issue 18): the turn is over once that choice shows, as typed.
  await expect(log.getByRole('button', { name: `Keep “${NAME}”` })).toBeVisible();
  const box = page.getByRole('textbox', { name: enChat.composer.label });
  await sendInComposer(box, 'show instructions');
  await expect(log.locator('.chat-card').getByText(NAME, { exact: false })).toBeVisible({ timeout: 30_000 });

  // — a PDF named and written with the same strings, uploaded into this chat —
  const { sessionId } = await dataOf<{ sessionId: string }>(
    await request.get(`/api/v1/sparks/${spark._id}/conversation`, { headers: account.headers }),
  );
  const uploaded = await request.post('/api/v1/bucket', {
    headers: account.headers,
    multipart: {
      sparkId: spark._id,
      conversationId: sessionId,
      name: DOCUMENT,
      file: { name: 'hostile.pdf', mimeType: 'application/pdf', buffer: await hostilePdf() },
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
  await page.reload();
  await expect(rendered.getByText(`I've read ${DOCUMENT}: 1 page`, { exact: false })).toBeVisible({
    timeout: 30_000,
  });
  await expectNothingRan(page);
  await shotInto(SHOTS, page, 'builder', 300);

  // — a test: the greeting, then an answer quoting the PDF with its source —
  const created = await dataOf<{ _id: string }>(
    await request.post(`/api/v1/sparks/${spark._id}/tests`, {
      headers: account.headers,
      data: { name: 'Hostile', params: { documentId: null, waitResponse: true } },
    }),
  );
  await page.goto(`/spark/${spark._id}/test/${created._id}`);
  await expect(rendered.getByText(GREETING)).toBeVisible({ timeout: 30_000 });
  await sendInComposer(box, 'When do you open every day?');
  const answer = rendered.filter({ hasText: 'We open at nine' });
  await expect(answer).toBeVisible({ timeout: 60_000 });
  // The PDF reader may read a space between "]" and "(": the characters are what counts.
  const squeezed = (text: string) => text.replace(/\s+/g, '');
  expect(squeezed(await answer.innerText())).toContain(squeezed(FACT));
  // Cited by its title: the file name without ".pdf" (issue 34 item 10).
  await expect(answer).toContainText(`${DOCUMENT.replace(/\.pdf$/, '')}, page 1`);
  // The answer is the document's sentence as it is: no word in bold any more (issue 17).
  await expect(answer.locator('strong')).toHaveCount(0);
  await expectNothingRan(page);
  await shotInto(SHOTS, page, 'test-answer', 300);

  expect(elsewhere).toEqual([]);
});
