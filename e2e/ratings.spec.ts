import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import enKnowledge from '../libs/core/src/locales/en/knowledge.json';
import esKnowledge from '../libs/core/src/locales/es/knowledge.json';
import enChat from '../web/public/locales/en/chat.json';
import enSparks from '../web/public/locales/en/sparks.json';
import enTests from '../web/public/locales/en/tests.json';
import esChat from '../web/public/locales/es/chat.json';
import esSparks from '../web/public/locales/es/sparks.json';
import esTests from '../web/public/locales/es/tests.json';
import { FEEDBACK_TEXTS } from '../web/src/widget/feedback-texts';
import { TEXTS } from '../web/src/widget/texts';
import { useSession, type Account } from './support/account';
import { seriousViolations } from './support/axe';
import { sendInComposer } from './support/composer';
import { shotInto } from './support/shots';
import { dataOf, sparkWithPdf } from './support/sparks';

/**
 * Ratings and the owner's review list (issue 35 items 1–2) end to end, in English (desktop) and in Spanish (phone):
 * a visitor on a second origin rates an answer of the widget down with a comment; the owner sees it in the Spark's
 * review list (why, what was said, its source, who rated it and the comment), writes the right answer, and the
 * visitor asking again gets it. The owner keeps that answer as a check; taking the answer back changes the Spark's
 * knowledge, the Spark's chat shows the check's approved and new answers side by side, and its button opens the
 * checks, where the owner approves the new one (issue 35 item 3). The owner also rates a test's answer down and
 * dismisses it from the list; then asks the test once more and judges it: its transcript shows under Judged tests with
 * the rating given in the test, and an answer rated down there joins the list (issue 35 item 2). The source of the
 * rated answer opens the document page at the cited page, and Back returns to the list (issue 35 item 2).
 * RATINGS_SHOTS_DIR=/tmp/shots-ratings keeps screenshots.
 */

const SHOTS = process.env.RATINGS_SHOTS_DIR;

const cases = {
  en: {
    knowledge: enKnowledge,
    chat: enChat,
    sparks: enSparks,
    tests: enTests,
    viewport: { width: 1440, height: 900 },
    name: 'Northwind Bikes',
    pdf: 'Northwind prices.pdf',
    text: 'Rentals cost 25 dollars per day, helmet and lock included. Electric bikes cost 45 dollars per day.',
    question: 'How much is an electric bike per day?',
    given: /45/,
    comment: 'It is 50 dollars since May.',
    right: 'Electric bikes cost 50 dollars per day since May.',
    open: /Open the chat with Northwind Bikes/,
    testQuestion: 'Do you rent tandems?',
    testComment: 'We do: 60 dollars a day.',
    transcriptQuestion: 'How much is a rental per day?',
    transcriptComment: 'It is 30 dollars since May.',
  },
  es: {
    knowledge: esKnowledge,
    chat: esChat,
    sparks: esSparks,
    tests: esTests,
    viewport: { width: 390, height: 844 },
    name: 'Panadería Sol',
    pdf: 'Horario Panadería Sol.pdf',
    text: 'La Panadería Sol abre los domingos hasta las 14:00. De lunes a sábado abrimos de 8:00 a 20:30.',
    question: '¿Hasta qué hora abrís los domingos?',
    given: /14:00/,
    comment: 'Ahora cerramos a las 15:00.',
    right: 'Los domingos abrimos hasta las 15:00 desde mayo.',
    open: /Abrir el chat con Panadería Sol/,
    testQuestion: '¿Hacéis tartas sin gluten?',
    testComment: 'Sí, por encargo.',
    transcriptQuestion: '¿Qué horario tenéis de lunes a sábado?',
    transcriptComment: 'Ahora abrimos a las 7:30.',
  },
} as const;

/** The visitor's site: a plain HTML page on a port of its own, showing the snippet it is given. */
async function hostPage(lang: 'en' | 'es') {
  let snippet = '';
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>A shop</title></head>
<body><h1>A small shop</h1>${snippet}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    show: (value: string) => (snippet = value),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Publishes the Spark for `origin` through the api: its snippet. */
async function publish(request: APIRequestContext, account: Account, sparkId: string, origin: string, app: string) {
  const { token } = await dataOf<{ token: string }>(
    await request.post(`/api/v1/sparks/${sparkId}/deployment`, { headers: account.headers, data: {} }),
  );
  await dataOf(
    await request.post(`/api/v1/sparks/${sparkId}/deployment/origins`, { headers: account.headers, data: { origin } }),
  );
  return `<script src="${app}/widget.js" data-token="${token}" async></script>`;
}

async function openReviewList(page: Page, sparkId: string, u: (typeof cases)['en']['sparks']['unanswered']) {
  await page.goto(`/spark/${sparkId}`);
  return openPanel(page, u);
}

/** Opens the review panel from the Spark page's header. */
async function openPanel(page: Page, u: (typeof cases)['en']['sparks']['unanswered']) {
  await page.getByRole('button', { name: new RegExp(u.button) }).click();
  const panel = page.getByRole('complementary', { name: u.heading });
  await expect(panel).toBeVisible();
  return panel;
}

for (const lang of ['en', 'es'] as const) {
  const c = cases[lang];
  const u = c.sparks.unanswered;
  const f = FEEDBACK_TEXTS[lang];

  test(`a visitor rates an answer down, the owner fixes it and the visitor gets the fix; a test's answer rated and dismissed, the test judged and its transcript rated (${lang})`, async ({
    page,
    context,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(300_000);
    const { account, sparkId } = await sparkWithPdf(request, {
      lang,
      tag: 'ratings',
      name: c.name,
      greeting: lang === 'en' ? 'Hi!' : '¡Hola!',
      pdf: c.pdf,
      title: c.name,
      text: c.text,
    });
    const site = await hostPage(lang);
    site.show(await publish(request, account, sparkId, site.origin, baseURL ?? ''));
    const visitorContext = await browser.newContext({
      locale: lang === 'es' ? 'es-ES' : 'en-US',
      viewport: c.viewport,
    });
    try {
      // — the visitor asks, and rates the answer down with a comment —
      const visitor = await visitorContext.newPage();
      await visitor.goto(site.origin);
      await visitor.getByRole('button', { name: c.open }).click();
      const dialog = visitor.getByRole('dialog', { name: c.name });
      const box = dialog.getByPlaceholder(TEXTS[lang].placeholder);
      await box.fill(c.question);
      await box.press('Enter');
      const answer = dialog.locator('.m.ai').last();
      await expect(answer).toContainText(c.given, { timeout: 60_000 });
      const rating = answer.getByRole('group', { name: f.question });
      await rating.getByRole('button', { name: f.down, exact: true }).click();
      await expect(rating.getByRole('button', { name: f.down, exact: true })).toHaveAttribute('aria-pressed', 'true');
      const why = rating.getByRole('textbox', { name: f.why });
      await expect(why).toBeFocused();
      await why.fill(c.comment);
      await rating.getByRole('button', { name: TEXTS[lang].send, exact: true }).click();
      await expect(why).toBeHidden();
      await expect(rating.getByRole('status')).toHaveText(f.thanks);
      await shotInto(SHOTS, visitor, `${lang}-01-visitor-rated-down`, 300);
      expect(await seriousViolations(visitor, '[data-sparks-widget]')).toEqual([]);

      // — the owner sees it in the review list and writes the right answer —
      await useSession(context, account, lang);
      await page.setViewportSize(c.viewport);
      let panel = await openReviewList(page, sparkId, u);
      const group = panel.getByTestId('unanswered-group').filter({ hasText: c.question });
      await expect(group).toContainText(u.reasonRatedDown);
      await expect(group).toContainText(u.ratedByVisitor.split(',')[0]);
      await expect(group).toContainText(c.comment);
      await expect(group).toContainText(u.said);
      await expect(group).toContainText(c.given);
      await expect(group).toContainText(c.pdf.replace(/\.pdf$/, ''));
      await shotInto(SHOTS, page, `${lang}-02-owner-review-list`, 300);
      expect(await seriousViolations(page, '.unanswered-panel')).toEqual([]);

      // — the owner opens the source: the document page, at the cited page; Back returns to the list (issue 35
      // item 2) —
      const d = c.sparks.document;
      const title = c.pdf.replace(/\.pdf$/, '');
      await group
        .getByRole('list', { name: u.sources })
        .getByRole('link', { name: u.sourcePage.replace('{{document}}', title).replace('{{page}}', '1') })
        .click();
      await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}/documents/[0-9a-f-]{36}\\?page=1$`));
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      const facts = page.locator('.document-reader__facts');
      await expect(facts).toContainText(d.status.completed);
      await expect(facts).toContainText(d.pages_one.replace('{{count}}', '1'));
      const cited = page.locator('section[aria-current="page"]');
      await expect(cited.getByRole('heading', { level: 2 })).toBeFocused();
      await expect(cited.getByRole('heading', { level: 2 })).toContainText(d.cited);
      await expect(cited).toContainText(c.name);
      await expect(cited).toContainText(c.given);
      await shotInto(SHOTS, page, `${lang}-02b-source-document`, 300);
      expect(await seriousViolations(page, `the document page (${lang})`)).toEqual([]);
      // The narrowest phone the app is made for.
      await page.setViewportSize({ width: 375, height: 812 });
      await shotInto(SHOTS, page, `${lang}-02c-source-document-375`, 300);
      await page.setViewportSize(c.viewport);
      await page.getByRole('link', { name: d.backTo.replace('{{name}}', c.name) }).click();
      await expect(panel.getByRole('heading', { level: 2, name: u.heading })).toBeFocused();
      await group.getByRole('button', { name: u.answer }).click();
      await group.getByRole('textbox', { name: u.yourAnswer }).fill(c.right);
      await group.getByRole('button', { name: u.save }).click();
      await expect(panel.getByRole('status')).toHaveText(u.saved);
      await expect(group).toContainText(u.answered);

      // — the visitor asks again and gets the owner's answer —
      await box.fill(c.question);
      await box.press('Enter');
      await expect(dialog.locator('.m.ai').last()).toContainText(c.right, { timeout: 60_000 });
      await shotInto(SHOTS, visitor, `${lang}-03-visitor-gets-the-fix`, 300);

      // — the owner keeps the fixed answer as a check; taking the answer back, the chat tells the check changed —
      const k = c.sparks.checks;
      await group.getByRole('button', { name: u.keepCheck }).click();
      await expect(panel.getByRole('status')).toHaveText(u.keptCheck);
      const check = panel.getByTestId('check').filter({ hasText: c.question });
      await expect(check).toContainText(k.statusSame, { timeout: 30_000 });
      await group.getByRole('button', { name: u.delete }).click();
      await page.getByRole('dialog', { name: u.deleteTitle }).getByRole('button', { name: u.deleteConfirm }).click();
      await expect(panel.getByRole('status')).toHaveText(u.deleted);
      // Back to the chat (on a phone the panel covers it): it tells the change by itself.
      await panel.getByRole('button', { name: u.close }).click();
      const told = page
        .locator('.chat-bubble--assistant')
        .filter({ hasText: c.knowledge.checks.changed_one.split(':')[0].replace(/\*/g, '') });
      await expect(told).toBeVisible({ timeout: 60_000 });
      await expect(told.locator('table')).toContainText(c.right);
      await shotInto(SHOTS, page, `${lang}-03b-chat-tells-a-check-changed`, 300);
      await page.getByRole('button', { name: c.knowledge.checks.review }).click();
      await expect(page.getByRole('heading', { name: k.heading })).toBeFocused();
      await expect(check).toContainText(k.statusChanged);
      await shotInto(SHOTS, page, `${lang}-03c-check-changed`, 300);
      await check.getByRole('button', { name: k.approve }).click();
      await expect(check).toContainText(k.statusSame);
      await expect(panel.getByText(k.approvedDone)).toBeVisible();

      // — the owner rates a test's answer down; it joins the list, marked as theirs, and is dismissed —
      const testTab = await dataOf<{ _id: string }>(
        await request.post(`/api/v1/sparks/${sparkId}/tests`, { headers: account.headers, data: { name: 'T1' } }),
      );
      await page.goto(`/spark/${sparkId}/test/${testTab._id}`);
      await sendInComposer(page.getByRole('textbox', { name: c.chat.composer.label }), c.testQuestion);
      const testAnswer = page.locator('.chat-msg--assistant', { has: page.getByTestId('answer-rating') }).last();
      await expect(testAnswer).toBeVisible({ timeout: 60_000 });
      const thumbs = testAnswer.getByRole('group', { name: c.chat.rating.question });
      await thumbs.getByRole('button', { name: c.chat.rating.down }).click();
      const testWhy = testAnswer.getByRole('textbox', { name: c.chat.rating.commentLabel });
      await testWhy.fill(c.testComment);
      await testAnswer.getByRole('button', { name: c.chat.rating.send }).click();
      await expect(testAnswer.getByRole('status')).toHaveText(c.chat.rating.thanksDown);
      await shotInto(SHOTS, page, `${lang}-04-owner-rated-a-test-answer`, 300);

      panel = await openReviewList(page, sparkId, u);
      const mine = panel.getByTestId('unanswered-group').filter({ hasText: c.testQuestion });
      await expect(mine).toContainText(u.ratedByOwner.split(',')[0]);
      await expect(mine).toContainText(c.testComment);
      await shotInto(SHOTS, page, `${lang}-05-owner-rating-in-the-list`, 300);
      await mine.getByRole('button', { name: u.dismiss }).click();
      await expect(panel.getByRole('status')).toHaveText(u.dismissed);
      await expect(mine).toHaveCount(0);
      // The question whose answer was taken back is open again, to answer.
      await expect(
        panel.getByTestId('unanswered-group').filter({ hasText: c.question }).getByRole('button', { name: u.answer }),
      ).toBeVisible();

      // — the owner asks the test once more and judges it: what was said stays under Judged tests, to read and rate
      // (issue 35 item 2) —
      const tr = c.sparks.transcripts;
      await page.goto(`/spark/${sparkId}/test/${testTab._id}`);
      await sendInComposer(page.getByRole('textbox', { name: c.chat.composer.label }), c.transcriptQuestion);
      await expect(page.locator('.chat-msg--assistant', { has: page.getByTestId('answer-rating') })).toHaveCount(2, {
        timeout: 60_000,
      });
      await page.getByRole('button', { name: c.tests.toolbar.finish }).click();
      const verdict = page.getByRole('dialog', { name: c.tests.feedback.title });
      await verdict.getByRole('button', { name: c.tests.feedback.no, exact: true }).click();
      // Back on the Spark, once its chat has the verdict.
      await expect(
        page.locator('.chat-bubble--human').filter({ hasText: c.chat.message.testNotSatisfactory }),
      ).toBeVisible({ timeout: 30_000 });
      panel = await openPanel(page, u);
      const judged = panel.getByTestId('transcript').filter({ hasText: 'T1' });
      await expect(judged).toContainText(tr.unsatisfactory);
      await expect(judged).toContainText(tr.questions_other.replace('{{count}}', '2'));
      await judged.scrollIntoViewIfNeeded();
      await shotInto(SHOTS, page, `${lang}-06-judged-tests`, 300);
      await judged.getByRole('button').click();
      const reader = panel.getByRole('article', { name: 'T1' });
      await expect(reader.getByRole('heading', { name: 'T1' })).toBeFocused();
      const said = reader.getByRole('list', { name: c.chat.transcript.label });
      await expect(said).toContainText(c.testQuestion);
      await expect(said).toContainText(c.transcriptQuestion);
      const answers = said.locator('.chat-msg--assistant', { has: page.getByTestId('answer-rating') });
      await expect(answers).toHaveCount(2);
      // The first answer keeps the owner's rating from the test; the second is rated down here, and joins the list.
      const thumbsOf = (n: number) => answers.nth(n).getByRole('group', { name: c.chat.rating.question });
      await expect(thumbsOf(0).getByRole('button', { name: c.chat.rating.down })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await shotInto(SHOTS, page, `${lang}-07-transcript`, 300);
      expect(await seriousViolations(page, '.unanswered-panel')).toEqual([]);
      await thumbsOf(1).getByRole('button', { name: c.chat.rating.down }).click();
      await answers.nth(1).getByRole('textbox', { name: c.chat.rating.commentLabel }).fill(c.transcriptComment);
      await answers.nth(1).getByRole('button', { name: c.chat.rating.send }).click();
      await expect(answers.nth(1).getByRole('status')).toHaveText(c.chat.rating.thanksDown);
      await shotInto(SHOTS, page, `${lang}-08-transcript-rated`, 300);
      await reader.getByRole('button', { name: tr.back }).click();
      await expect(judged.getByRole('button')).toBeFocused();
      const rated = panel.getByTestId('unanswered-group').filter({ hasText: c.transcriptQuestion });
      await expect(rated).toContainText(u.ratedByOwner.split(',')[0]);
      await expect(rated).toContainText(c.transcriptComment);
      await rated.scrollIntoViewIfNeeded();
      await shotInto(SHOTS, page, `${lang}-09-transcript-rating-in-the-list`, 300);
    } finally {
      await visitorContext.close();
      await site.close();
    }
  });
}
