import fs from 'node:fs';
import path from 'node:path';

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Pool } from 'pg';

import enAnalytics from '../web/public/locales/en/analytics.json';
import esAnalytics from '../web/public/locales/es/analytics.json';
import enCommon from '../web/public/locales/en/common.json';
import esCommon from '../web/public/locales/es/common.json';
import enLayout from '../web/public/locales/en/layout.json';
import esLayout from '../web/public/locales/es/layout.json';
import { useSession, type Account } from './support/account';
import { seriousViolations } from './support/axe';
import { dataOf, sparkWithPdf } from './support/sparks';

/**
 * The owner's analytics (issue 35 item 4) in English on a desktop and in Spanish on a phone: a Spark with a test chat
 * (a question answered from its PDF and rated up, one it does not cover rated down, the first asked three days ago),
 * opened from the Spark page's header: the totals, the charts with their figures as text, the top questions, the
 * period chooser; then the summary of all the owner's Sparks from the Menu. Axe finds nothing serious.
 * ANALYTICS_SHOTS_DIR=/tmp/shots-analytics keeps full-page screenshots.
 */

const SHOTS = process.env.ANALYTICS_SHOTS_DIR;

const cases = {
  en: {
    analytics: enAnalytics,
    common: enCommon,
    layout: enLayout,
    viewport: { width: 1440, height: 900 },
    name: 'Northwind Bikes',
    pdf: 'Northwind prices.pdf',
    text: 'Rentals cost 25 dollars per day, helmet and lock included. Electric bikes cost 45 dollars per day.',
    answered: 'How much is an electric bike per day?',
    notCovered: 'Do you rent tandems?',
  },
  es: {
    analytics: esAnalytics,
    common: esCommon,
    layout: esLayout,
    viewport: { width: 390, height: 844 },
    name: 'Panadería Sol',
    pdf: 'Horario Panadería Sol.pdf',
    text: 'La Panadería Sol abre los domingos hasta las 14:00. De lunes a sábado abrimos de 8:00 a 20:30.',
    answered: '¿Hasta qué hora abrís los domingos?',
    notCovered: '¿Hacéis tartas sin gluten?',
  },
} as const;

interface Reply {
  _id: string;
  data: { answer?: string };
}

/** Asks the Spark's test chat through the api (the worker answers) and rates the answer. */
async function askAndRate(
  request: APIRequestContext,
  account: Account,
  sparkId: string,
  testId: string,
  text: string,
  rating: 'up' | 'down',
): Promise<Reply> {
  const { ai } = await dataOf<{ ai: Reply }>(
    await request.post(`/api/v1/sparks/${sparkId}/chat/${testId}`, {
      headers: account.headers,
      data: { input: { text } },
      timeout: 90_000,
    }),
  );
  await dataOf(
    await request.post(`/api/v1/sparks/${sparkId}/messages/${ai._id}/feedback`, {
      headers: account.headers,
      data: { rating },
    }),
  );
  return ai;
}

/**
 * A screenshot of the whole page into ANALYTICS_SHOTS_DIR (none without it): the app scrolls inside its main area, so
 * the window is made as tall as that area's content for the picture, then put back.
 */
async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  const height = await page.evaluate<number>(
    `(() => { const m = document.querySelector('.main-content'); return m ? m.scrollHeight + m.getBoundingClientRect().top + 64 : 0; })()`,
  );
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, Math.ceil(height)) });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  await page.setViewportSize(size);
}

for (const lang of ['en', 'es'] as const) {
  const c = cases[lang];
  const a = c.analytics;

  test(`the owner opens a Spark's analytics and the summary of all Sparks (${lang}, ${c.viewport.width} px)`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(180_000);
    const { account, sparkId } = await sparkWithPdf(request, {
      lang,
      tag: 'analytics',
      name: c.name,
      greeting: lang === 'en' ? 'Hi!' : '¡Hola!',
      pdf: c.pdf,
      title: c.name,
      text: c.text,
    });
    const test1 = await dataOf<{ _id: string }>(
      await request.post(`/api/v1/sparks/${sparkId}/tests`, {
        headers: account.headers,
        data: { name: 'T1', params: { documentId: null, waitResponse: true } },
      }),
    );
    const answered = await askAndRate(request, account, sparkId, test1._id, c.answered, 'up');
    expect(answered.data.answer).toBe('answer');
    const notCovered = await askAndRate(request, account, sparkId, test1._id, c.notCovered, 'down');
    expect(notCovered.data.answer).toBe('notCovered');
    // The first question (and its answer) three days ago: the chart has two days of the test chat.
    const sql = new Pool({ connectionString: process.env.E2E_DATABASE_URL, max: 1 });
    await sql
      .query(
        `UPDATE messages SET created_at = created_at - interval '3 days'
          WHERE id = $1 OR id = (SELECT reply_to FROM messages WHERE id = $1)`,
        [answered._id],
      )
      .finally(() => sql.end());

    await useSession(context, account, lang);
    await page.setViewportSize(c.viewport);

    // — from the Spark page's header —
    await page.goto(`/spark/${sparkId}`);
    const toAnalytics = page.getByRole('link', { name: c.common.nav.analytics });
    await expect(toAnalytics).toBeVisible();
    await shot(page, `${lang}-00-spark-page-header`);
    await toAnalytics.click();
    await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}/analytics$`));
    await expect(page.getByRole('heading', { level: 1, name: a.sparkTitle.replace('{{name}}', c.name) })).toBeVisible();
    const figures = page.getByTestId('analytics-figures');
    await expect(figures).toBeVisible();
    await expect(page.getByRole('button', { name: a.period.days.replace('{{count}}', '30') })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    const totals = page.getByLabel(a.totals.label);
    const tile = (label: string) => totals.locator('div').filter({ has: page.getByText(label, { exact: true }) });
    await expect(tile(a.totals.conversations).locator('dd')).toHaveText('1');
    await expect(tile(a.totals.questions).locator('dd')).toHaveText('2');
    await expect(tile(a.totals.answers).locator('dd')).toHaveText('2');
    await expect(tile(a.totals.notCovered).locator('dd')).toHaveText('1');
    await expect(tile(a.totals.ratedUp).locator('dd')).toHaveText('1');
    await expect(tile(a.totals.ratedDown).locator('dd')).toHaveText('1');

    // Each chart is an image named by its heading, with its figures as text.
    const daily = page.getByRole('img', { name: a.daily.title });
    await expect(daily).toBeVisible();
    await expect(daily.locator('rect.analytics-bar--conversations')).toHaveCount(30);
    const dailyTable = page.getByRole('table', { name: a.daily.title });
    await expect(dailyTable.getByRole('row')).toHaveCount(31);
    await expect(page.getByRole('img', { name: a.shares.title })).toBeVisible();
    await expect(page.getByRole('img', { name: a.hours.title })).toBeVisible();
    const top = page.getByRole('region', { name: a.top.title });
    await expect(top.getByRole('listitem')).toHaveText([
      new RegExp(escape(c.notCovered)),
      new RegExp(escape(c.answered)),
    ]);
    await expect(page.getByRole('region', { name: a.sites.title })).toContainText(a.sites.empty);
    // Nothing of the chart overflows a phone's width.
    const overflow = await page.evaluate(`document.documentElement.scrollWidth > document.documentElement.clientWidth`);
    expect(overflow).toBe(false);
    await shot(page, `${lang}-01-spark-30-days`);
    expect(await seriousViolations(page, `${lang} spark analytics`)).toEqual([]);

    // — 7 days: the address keeps the choice —
    await page.getByRole('button', { name: a.period.days.replace('{{count}}', '7') }).click();
    await expect(page).toHaveURL(/\?days=7$/);
    await expect(daily.locator('rect.analytics-bar--conversations')).toHaveCount(7);
    await expect(tile(a.totals.questions).locator('dd')).toHaveText('2');
    await shot(page, `${lang}-02-spark-7-days`);

    // — all Sparks, from the Menu (on a phone, the sidebar opens first) —
    if (c.viewport.width < 1140) await page.getByRole('button', { name: c.layout.sidebar.open }).click();
    await page.getByRole('button', { name: c.layout.menu.button, exact: true }).click();
    await page.getByRole('menuitem', { name: c.common.nav.analytics }).click();
    await expect(page).toHaveURL(/\/analytics$/);
    await expect(page.getByRole('heading', { level: 1, name: a.summaryTitle })).toBeVisible();
    const sparks = page.getByRole('table', { name: a.sparks.title });
    const row = sparks.getByRole('row').filter({ hasText: c.name });
    await expect(row.getByRole('cell')).toHaveText(['1', '2', '1', '1', '1']);
    await shot(page, `${lang}-03-all-sparks`);
    expect(await seriousViolations(page, `${lang} all sparks analytics`)).toEqual([]);
    await row.getByRole('link', { name: a.sparks.open.replace('{{name}}', c.name) }).click();
    await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}/analytics\\?days=30$`));
  });
}

/** A text for a RegExp, its special characters escaped. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
