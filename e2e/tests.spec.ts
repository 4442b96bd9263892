import fs from 'node:fs';
import path from 'node:path';

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import enChat from '../web/public/locales/en/chat.json';
import enTests from '../web/public/locales/en/tests.json';
import esChat from '../web/public/locales/es/chat.json';
import esTests from '../web/public/locales/es/tests.json';
import enFlows from '../libs/core/src/locales/en/flows.json';
import esFlows from '../libs/core/src/locales/es/flows.json';
import { signUp, useSession, type Account } from './support/account';
import { sendInComposer } from './support/composer';
import { dataOf, makePdf } from './support/sparks';

/**
 * The test screens of a Spark against the real api + worker (docs/product.md §2 test tab bar and dialogs, §4 restart and
 * feedback, §5 at most 5 tests and the typed name to delete one, §8 the sixth test, §9 the cut tab names), in
 * English and in Spanish: tabs up to 5 and the alert on the sixth, a question answered from an uploaded PDF
 * with its source, restart, delete, report an error, finish with No and with Yes, and the phone view — each on
 * a 1440×900 desktop and on a 390×844 phone.
 */

test.use({ locale: 'en-US' });

const SHOTS = process.env.TESTS_SHOTS_DIR ?? '/tmp/shots-tests';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const DOCUMENT = 'horario-panaderia.pdf';
const GREETING = 'Hola, soy el asistente de la Panadería Sol. ¿En qué te ayudo?';

const catalogues = {
  en: { tests: enTests, chat: enChat },
  es: { tests: esTests, chat: esChat },
} as const;
type Session = Account;

/** A one-page Spanish PDF with a clear fact about Sundays. */
function sundayPdf(): Promise<Buffer> {
  return makePdf(
    'Horario de la Panadería Sol',
    'La Panadería Sol está en la calle Mayor 12 de Salamanca. De lunes a sábado abrimos de 8:00 a 20:30. ' +
      'Abrimos los domingos hasta las 14:00. Los festivos permanece cerrada.',
    'Todo el pan se hace cada mañana con masa madre y harina ecológica.',
  );
}

/** A Spark in Spanish with the PDF read and searchable. */
async function sparkWithDocument(request: APIRequestContext, session: Session): Promise<string> {
  const spark = await dataOf<{ _id: string }>(
    await request.post('/api/v1/sparks', {
      headers: session.headers,
      data: { name: 'Panadería Sol', options: { initialMessage: GREETING, language: 'es' } },
    }),
  );
  const uploaded = await request.post('/api/v1/bucket', {
    headers: session.headers,
    multipart: {
      sparkId: spark._id,
      name: DOCUMENT,
      file: { name: DOCUMENT, mimeType: 'application/pdf', buffer: await sundayPdf() },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBeLessThan(300);
  await expect
    .poll(
      async () => {
        const documents = await dataOf<Array<{ name: string; status: string; error: string | null }>>(
          await request.get(`/api/v1/sparks/${spark._id}/documents`, { headers: session.headers }),
        );
        return documents.map((d) => `${d.name}:${d.status}${d.error ? `:${d.error}` : ''}`).join(',');
      },
      { timeout: 60_000, message: 'the PDF is read' },
    )
    .toBe(`${DOCUMENT}:completed`);
  return spark._id;
}

async function addTestByApi(request: APIRequestContext, session: Session, sparkId: string, name: string) {
  return dataOf<{ _id: string; name: string }>(
    await request.post(`/api/v1/sparks/${sparkId}/tests`, {
      headers: session.headers,
      data: { name, params: { documentId: null, waitResponse: true } },
    }),
  );
}

async function testsOf(request: APIRequestContext, session: Session, sparkId: string) {
  return dataOf<Array<{ _id: string; name: string }>>(
    await request.get(`/api/v1/sparks/${sparkId}/tests`, { headers: session.headers }),
  );
}

async function builderMessages(request: APIRequestContext, session: Session, sparkId: string) {
  const history = await dataOf<{ messages: Array<{ type: string; data: { content: string } }> }>(
    await request.get(`/api/v1/sparks/${sparkId}/conversation`, { headers: session.headers }),
  );
  return history.messages;
}

async function snap(page: Page, name: string, settle = 400) {
  fs.mkdirSync(SHOTS, { recursive: true });
  // A resize may have started the layout's drawer or the overlay transitions: let them end.
  if (settle) await page.waitForTimeout(settle);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** The overlay is gone (it lingers 0.8 s after loading). */
async function loaded(page: Page) {
  await expect(page.getByTestId('test-loading-overlay')).toHaveCount(0, { timeout: 15_000 });
}

for (const [lang, device] of (['en', 'es'] as const).flatMap((l) =>
  (['desktop', 'phone'] as const).map((d) => [l, d] as const),
)) {
  const { tests: t, chat } = catalogues[lang];
  const defaultName = (n: number) => t.tabs.defaultName.replace('{{n}}', String(n));
  const VIEW = device === 'phone' ? PHONE : DESKTOP;
  const shot = (page: Page, name: string, settle?: number) => snap(page, `${device}-${name}`, settle);

  test(`the tests of a Spark: tabs, limit, answer with its source, restart, delete, finish (${lang}, ${device})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(VIEW);
    const session = await signUp(request, lang, 'e2e.tests');
    const sparkId = await sparkWithDocument(request, session);
    const first = await addTestByApi(request, session, sparkId, 'Preguntas sobre el horario');
    await useSession(context, session, lang);

    const testPosts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === `/api/v1/sparks/${sparkId}/tests`)
        testPosts.push(req.url());
    });

    // — the test page: overlay, then the tab (long name cut), the TEST tag and the greeting —
    // The Spark's tests are held back until the overlay has been seen: on a busy machine the page could load and
    // the overlay end before the first check ran.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const testsList = (url: URL) => url.pathname === `/api/v1/sparks/${sparkId}/tests`;
    await page.route(testsList, async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.fallback();
    });
    await page.goto(`/spark/${sparkId}/test/${first._id}`);
    await expect(page.getByTestId('test-loading-overlay')).toBeVisible();
    await expect(page.getByTestId('test-loading-overlay')).toContainText(t.page.loading);
    await shot(page, `${lang}-00-loading-overlay`, 0);
    release();
    await page.unroute(testsList);
    await loaded(page);
    const tabs = page.getByRole('navigation', { name: t.tabs.label });
    await expect(tabs.getByRole('link')).toHaveText(['Pregunta…']);
    await expect(tabs.getByRole('link', { name: 'Pregunta…' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('spark-tag')).toHaveText('TEST');
    await expect(page.getByRole('heading', { level: 1, name: 'Panadería Sol' })).toBeVisible();
    const log = page.locator('.chat-panel');
    await expect(log.getByText(GREETING)).toBeVisible({ timeout: 30_000 });
    await shot(page, `${lang}-01-test-page-desktop`);

    // — '+' up to five tests, each opened on creation —
    for (let n = 2; n <= 5; n += 1) {
      await tabs.getByRole('button', { name: t.tabs.add }).click();
      await expect(tabs.getByRole('link', { name: defaultName(n) })).toHaveAttribute('aria-current', 'page');
      await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}/test/[0-9a-f-]+$`));
    }
    await expect(tabs.getByRole('link')).toHaveCount(5);
    await expect(log.getByText(GREETING)).toBeVisible({ timeout: 30_000 });
    expect(testPosts).toHaveLength(4);
    await shot(page, `${lang}-02-five-tests`);

    // — a sixth: the alert, and the server is not asked —
    await tabs.getByRole('button', { name: t.tabs.add }).click();
    const alert = page.getByRole('dialog', { name: t.limit.title });
    await expect(alert).toContainText(t.limit.message);
    await shot(page, `${lang}-03-limit-alert`);
    await alert.getByRole('button', { name: t.limit.ok }).click();
    await expect(alert).toHaveCount(0);
    expect(testPosts).toHaveLength(4);
    expect(await testsOf(request, session, sparkId)).toHaveLength(5);

    // — a question answered from the PDF, with its source —
    await tabs.getByRole('link', { name: 'Pregunta…' }).click();
    await expect(page).toHaveURL(new RegExp(`/test/${first._id}$`));
    await expect(log.getByText(GREETING)).toBeVisible();
    const box = page.getByRole('textbox', { name: chat.composer.label });
    await sendInComposer(box, '¿Abrís los domingos?');
    const answer = log.locator('.chat-bubble--assistant').filter({ hasText: '14:00' });
    await expect(answer).toBeVisible({ timeout: 60_000 });
    // Cited by its title: the file name without ".pdf" (issue 34 item 10).
    await expect(answer).toContainText(`${DOCUMENT.replace(/\.pdf$/, '')}, página 1`);
    await expect(log.getByText('¿Abrís los domingos?')).toBeVisible();
    await shot(page, `${lang}-04-cited-answer`);

    // — restart: the history is cleared and the greeting comes again —
    const slot = JSON.stringify(`${sparkId}:${first._id}`);
    const stored = () =>
      page.evaluate<string | null>(
        `(JSON.parse(localStorage.getItem('test_chat_conversations') ?? '{}')[${slot}] ?? {}).conversationId ?? null`,
      );
    const before = await stored();
    expect(before).not.toBeNull();
    await page.getByRole('button', { name: t.toolbar.restart }).click();
    await expect(log.getByText('¿Abrís los domingos?')).toHaveCount(0, { timeout: 30_000 });
    await expect(log.getByText(GREETING)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('button', { name: t.toolbar.restart })).toBeEnabled();
    await expect.poll(stored).not.toBe(before);
    await shot(page, `${lang}-05-restarted`);

    // — report an error, behind "…" —
    await page.getByRole('button', { name: t.toolbar.more }).click();
    await page.getByRole('menuitem', { name: t.toolbar.report }).click();
    const report = page.getByRole('dialog', { name: t.report.title });
    await report.getByLabel(t.report.label).fill('Dice que abrimos los domingos por la tarde.');
    await shot(page, `${lang}-06-report-dialog`);
    await report.getByRole('button', { name: t.report.send }).click();
    await expect(report).toHaveCount(0);
    await expect(page.getByText(t.report.thanks)).toBeVisible();

    // — delete a test: its name typed exactly —
    const third = defaultName(3);
    await tabs.getByRole('button', { name: t.tabs.delete.replace('{{name}}', third) }).click();
    const confirm = page.getByRole('dialog', { name: t.delete.title.replace('{{name}}', third) });
    const field = confirm.getByLabel(t.delete.typeLabel.replace('{{name}}', third));
    const remove = confirm.getByRole('button', { name: t.delete.confirm });
    await expect(remove).toBeDisabled();
    await field.fill(third.toLowerCase());
    await expect(remove).toBeDisabled();
    await field.fill(third);
    await expect(remove).toBeEnabled();
    await shot(page, `${lang}-07-delete-dialog`);
    await remove.click();
    await expect(confirm).toHaveCount(0);
    await expect(tabs.getByRole('link')).toHaveCount(4);
    await expect(tabs.getByRole('link', { name: third })).toHaveCount(0);
    expect((await testsOf(request, session, sparkId)).map((test) => test.name)).not.toContain(third);

    // — the phone view of the open test —
    await page.getByRole('button', { name: t.toolbar.more }).click();
    await page.getByRole('menuitem', { name: t.page.phone }).click();
    await expect(page).toHaveURL(new RegExp(`/mobile-test/${sparkId}/${first._id}$`));
    const frame = page.getByRole('region', { name: t.mobile.frame });
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Preguntas sobre el horario');
    await expect(frame.getByText(GREETING)).toBeVisible({ timeout: 30_000 });
    const box390 = await frame.boundingBox();
    expect(Math.round(box390!.width)).toBe(390);
    await shot(page, `${lang}-08-phone-frame-desktop`);
    await page.setViewportSize(PHONE);
    await expect(frame.getByText(GREETING)).toBeVisible();
    expect(Math.round((await frame.boundingBox())!.width)).toBe(PHONE.width);
    await shot(page, `${lang}-09-phone-frame-390`);
    await frame.getByRole('link', { name: t.mobile.back }).click();
    await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}/test/${first._id}$`));
    await loaded(page);
    await expect(log.getByText(GREETING)).toBeVisible({ timeout: 30_000 });
    await shot(page, `${lang}-10-test-page-390`);
    await page.setViewportSize(VIEW);

    // — finish with "No": the test is removed, back on the Spark, the builder hears it —
    await page.getByRole('button', { name: t.toolbar.finish }).click();
    const feedback = page.getByRole('dialog', { name: t.feedback.title });
    await expect(feedback.getByRole('button', { name: t.feedback.yes, exact: true })).toBeVisible();
    await shot(page, `${lang}-11-feedback-dialog`);
    await feedback.getByRole('button', { name: t.feedback.no, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}(\\?refresh=\\d+)?$`));
    expect((await testsOf(request, session, sparkId)).map((test) => test._id)).not.toContain(first._id);
    await expect
      .poll(async () => (await builderMessages(request, session, sparkId)).map((m) => `${m.type}:${m.data.content}`), {
        timeout: 30_000,
      })
      .toContainEqual('human:test not satisfactory');
    await expect
      .poll(async () => {
        const messages = await builderMessages(request, session, sparkId);
        const index = messages.findIndex((m) => m.data.content === 'test not satisfactory');
        return messages.slice(index + 1).some((m) => m.type === 'ai');
      })
      .toBe(true);
    // The page reloads the conversation with the reply, and `?refresh=…` does not stay in the address (issue 18).
    const flows = lang === 'en' ? enFlows : esFlows;
    await expect(log.getByText(flows.testKo.slice(0, 40))).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}$`));
    await shot(page, `${lang}-12-after-no`);

    // After "No" the builder offers the next test: its button makes one, and the reply opens it.
    expect(await testsOf(request, session, sparkId)).toHaveLength(3);
    await log.getByRole('button', { name: flows.newTestButton, exact: true }).click();
    await expect.poll(async () => (await testsOf(request, session, sparkId)).length, { timeout: 30_000 }).toBe(4);
    const made = (await testsOf(request, session, sparkId)).at(-1)!;
    const open = log.getByRole('button', { name: flows.newTestOpen, exact: true }).last();
    await expect(open).toBeVisible({ timeout: 30_000 });
    await shot(page, `${lang}-12b-new-test-offered`);
    await open.click();
    await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}/test/${made._id}$`));
    await loaded(page);
    await page.goto(`/spark/${sparkId}`);
    await loaded(page);

    // — finish another with "Yes" —
    const remaining = await testsOf(request, session, sparkId);
    expect(remaining).toHaveLength(4);
    await page.goto(`/spark/${sparkId}/test/${remaining[0]._id}`);
    await loaded(page);
    await expect(log.getByText(GREETING)).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: t.toolbar.finish }).click();
    await page
      .getByRole('dialog', { name: t.feedback.title })
      .getByRole('button', { name: t.feedback.yes, exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}(\\?refresh=\\d+)?$`));
    await expect
      .poll(async () => (await builderMessages(request, session, sparkId)).map((m) => `${m.type}:${m.data.content}`), {
        timeout: 30_000,
      })
      .toContainEqual('human:test satisfactory');
    expect(await testsOf(request, session, sparkId)).toHaveLength(3);
    await expect(log.getByText(flows.testOk.slice(0, 20))).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}$`));
    await shot(page, `${lang}-13-after-yes`);

    // — a test id that is not there opens the first test —
    await page.goto(`/spark/${sparkId}/test/00000000-0000-4000-8000-000000000000`);
    await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}/test/${remaining[1]._id}$`));
  });
}
