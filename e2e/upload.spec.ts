import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import PDFDocument from 'pdfkit';

import enBilling from '../web/public/locales/en/billing.json';
import enChat from '../web/public/locales/en/chat.json';
import enLayout from '../web/public/locales/en/layout.json';
import esBilling from '../web/public/locales/es/billing.json';
import esChat from '../web/public/locales/es/chat.json';
import esLayout from '../web/public/locales/es/layout.json';
import { signUp, useSession, type Account } from './support/account';
import { fill } from './support/catalogues';
import { shotInto } from './support/shots';

/**
 * The upload dialogs of a Spark's chat (issue 8; docs/product.md §2, §4 upload flow, §5 PDF only and ≤ 10 MB, §8 the
 * document limit) against the real api + worker, in English and Spanish, on a desktop and on a 390×844 phone:
 * a picture renamed .pdf and a file of 10 MB + 1 byte are refused in the browser before any byte is sent (with
 * the size in MB, two decimals); a file of exactly 10 MB reaches the confirmation, and Cancel sends nothing; at
 * the plan's 10 documents the server's 402 opens the document-limit dialog, whose "view plans" opens the plans.
 */

const texts = {
  en: { chat: enChat, layout: enLayout, billing: enBilling },
  es: { chat: esChat, layout: esLayout, billing: esBilling },
} as const;

const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

const MB = 1024 * 1024;
const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const SHOTS = process.env.UPLOAD_SHOTS_DIR;

const shot = (page: Page, name: string) => shotInto(SHOTS, page, name, 300);

/** A small PDF whose text differs by `n` (so no two are the same file). */
function pdf(n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4' });
    const parts: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => parts.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
    doc.fontSize(12).text(`Documento número ${n}. La tienda abre a las ${8 + (n % 4)}:00 de la mañana.`);
    doc.end();
  });
}

/** A buffer of `size` bytes that starts like a PDF. */
function pdfLike(size: number): Buffer {
  const buffer = Buffer.alloc(size, 0x20);
  buffer.write('%PDF-1.4\n', 0, 'latin1');
  return buffer;
}

async function createSpark(request: APIRequestContext, account: Account): Promise<string> {
  const response = await request.post('/api/v1/sparks', { data: { name: 'Tienda' }, headers: account.headers });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { _id: string } }).data._id;
}

async function documentCount(request: APIRequestContext, account: Account, sparkId: string): Promise<number> {
  const response = await request.get(`/api/v1/sparks/${sparkId}/documents`, { headers: account.headers });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { data: unknown[] }).data.length;
}

test.use({ locale: 'en-US' });

for (const lang of ['en', 'es'] as const) {
  const { chat: t } = texts[lang];
  for (const device of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) {
    test(`upload dialogs: format, size, confirmation and the document limit (${lang}, ${device})`, async ({
      page,
      request,
      context,
    }) => {
      test.setTimeout(150_000);
      await page.setViewportSize(VIEWPORTS[device]);
      const account = await signUp(request, lang, 'upload');
      const sparkId = await createSpark(request, account);
      await useSession(context, account, lang);
      const tag = `${lang}-${device}`;
      const uploads: string[] = [];
      page.on('request', (req) => {
        if (new URL(req.url()).pathname === '/api/v1/bucket') uploads.push(req.method());
      });

      await page.goto(`/spark/${sparkId}`);
      const attach = page.getByRole('button', { name: t.attach.button });
      await expect(attach).toBeVisible({ timeout: 15_000 });
      async function choose(file: { name: string; mimeType: string; buffer: Buffer }) {
        await attach.click();
        const chooser = page.waitForEvent('filechooser');
        await page.getByRole('menuitem', { name: t.attach.addFiles }).click();
        await (await chooser).setFiles(file);
      }

      // — a picture renamed .pdf —
      await choose({ name: 'foto.pdf', mimeType: 'application/pdf', buffer: PNG_BYTES });
      const format = page.getByRole('alertdialog', { name: t.dialogs.format.title });
      await expect(format).toContainText(t.dialogs.format.text);
      await shot(page, `${tag}-01-format`);
      await format.getByRole('button', { name: t.dialogs.understood }).click();
      await expect(format).toHaveCount(0);

      // — 10 MB + 1 byte: too large, with its size —
      await choose({ name: 'grande.pdf', mimeType: 'application/pdf', buffer: pdfLike(10 * MB + 1) });
      const size = page.getByRole('alertdialog', { name: t.dialogs.size.title });
      await expect(size).toContainText(fill(t.dialogs.size.text, { max: 10, size: lang === 'es' ? '10,00' : '10.00' }));
      await shot(page, `${tag}-02-too-large`);
      await size.getByRole('button', { name: t.dialogs.understood }).click();
      await expect(size).toHaveCount(0);

      // — exactly 10 MB passes the browser's checks; Cancel sends nothing —
      await choose({ name: 'justo.pdf', mimeType: 'application/pdf', buffer: pdfLike(10 * MB) });
      const confirm = page.getByRole('dialog', { name: t.dialogs.confirmUpload.title });
      await expect(confirm).toContainText(
        fill(t.dialogs.confirmUpload.text, { name: 'justo.pdf', size: lang === 'es' ? '10,00 MB' : '10.00 MB' }),
      );
      await shot(page, `${tag}-03-confirm`);
      await confirm.getByRole('button', { name: t.dialogs.cancel }).click();
      await expect(confirm).toHaveCount(0);
      expect(uploads).toEqual([]);
      expect(await documentCount(request, account, sparkId)).toBe(0);

      // — the plan's 10 documents: the server answers 402 and the document-limit dialog opens —
      for (let n = 1; n <= 10; n += 1) {
        const response = await request.post('/api/v1/bucket', {
          headers: account.headers,
          multipart: {
            sparkId,
            file: { name: `doc-${n}.pdf`, mimeType: 'application/pdf', buffer: await pdf(n) },
          },
        });
        expect(response.status(), await response.text()).toBeLessThan(300);
      }
      await choose({ name: 'once.pdf', mimeType: 'application/pdf', buffer: await pdf(11) });
      await page
        .getByRole('dialog', { name: t.dialogs.confirmUpload.title })
        .getByRole('button', {
          name: t.dialogs.accept,
        })
        .click();
      const limit = page.getByRole('alertdialog', { name: t.dialogs.documentLimit.title });
      await expect(limit).toContainText(t.dialogs.documentLimit.text, { timeout: 15_000 });
      expect(uploads).toEqual(['POST']);
      await shot(page, `${tag}-04-document-limit`);
      await limit.getByRole('button', { name: t.dialogs.viewPlans }).click();
      await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}\\?showPlans=true$`));
      const plans = page.getByRole('dialog', { name: texts[lang].billing.plans.title });
      await expect(plans.getByRole('button', { name: texts[lang].billing.plans.close })).toBeVisible();
      await shot(page, `${tag}-05-plans`);
      expect(await documentCount(request, account, sparkId)).toBe(10);
    });
  }
}
