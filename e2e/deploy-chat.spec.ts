import { expect as baseExpect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { Pool } from 'pg';

import enFlows from '../libs/core/src/locales/en/flows.json';
import enChat from '../web/public/locales/en/chat.json';
import esChat from '../web/public/locales/es/chat.json';
import esFlows from '../libs/core/src/locales/es/flows.json';
import enDeploy from '../web/public/locales/en/deploy.json';
import esDeploy from '../web/public/locales/es/deploy.json';
import { signUp, useSession, type Account } from './support/account';
import { shotInto, snap } from './support/shots';
import { allowDeployments, dataOf } from './support/sparks';

/**
 * The deploy assistant's own conversation on /deploy (issue 16), in English and in Spanish: it replaces
 * the code and unpublishes a Spark from the chat, each after a confirmation (the old token dies at once
 * on the public API; unpublishing frees the plan's place), and it greets afresh when its last message
 * is more than 24 hours old (docs/product.md §4; the messages are aged in the database). AUTH_SHOTS_DIR keeps
 * screenshots (desktop and 390×844).
 */

// Each step waits for the worker's reply on a machine that may be busy: a generous wait, not a sleep.
const expect = baseExpect.configure({ timeout: 90_000 });

const words = {
  en: {
    flows: enFlows,
    chat: enChat,
    deploy: enDeploy.panel,
    page: enDeploy.page,
    name: 'Northwind Bikes',
    welcome: 'The steps are in the panel',
    unpublishButton: 'Unpublish a Spark',
    rotateButton: 'Replace the code',
  },
  es: {
    flows: esFlows,
    chat: esChat,
    deploy: esDeploy.panel,
    page: esDeploy.page,
    name: 'Panadería Sol',
    welcome: 'En el panel tienes los pasos',
    unpublishButton: 'Despublicar un Spark',
    rotateButton: 'Sustituir el código',
  },
} as const;

const fill = (text: string, vars: Record<string, string>) => text.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
const plain = (markdown: string) => markdown.replace(/\*\*/g, '');

async function publishedSpark(request: APIRequestContext, lang: 'en' | 'es') {
  const account = await signUp(request, lang, 'deploychat');
  await allowDeployments(account, 1);
  const spark = await dataOf<{ _id: string }>(
    await request.post('/api/v1/sparks', {
      headers: account.headers,
      data: { name: words[lang].name, options: { language: lang } },
    }),
  );
  const view = await dataOf<{ token: string }>(
    await request.post(`/api/v1/sparks/${spark._id}/deployment`, { headers: account.headers, data: {} }),
  );
  await dataOf(
    await request.post(`/api/v1/sparks/${spark._id}/deployment/origins`, {
      headers: account.headers,
      data: { origin: 'http://shop.localhost:8081' },
    }),
  );
  return { account, sparkId: spark._id, token: view.token };
}

/** The widget's config as an allowed site asks for it: 200 while the token lives, 404 once it is dead. */
async function configStatus(request: APIRequestContext, token: string): Promise<number> {
  const res = await request.get(`/api/v1/public/widgets/${token}/config`, {
    headers: { Origin: 'http://shop.localhost:8081' },
  });
  return res.status();
}

async function ageDeployConversation(account: Account, hours: number) {
  const sql = new Pool({ connectionString: process.env.E2E_DATABASE_URL, max: 1 });
  try {
    await sql.query(
      `UPDATE messages SET created_at = created_at - make_interval(hours => $2)
        WHERE conversation_id IN (SELECT c.id FROM conversations c JOIN users u ON u.id = c.user_id
                                   WHERE u.username = $1 AND c.kind = 'system' AND c.system_name = 'deploy')`,
      [account.email, hours],
    );
  } finally {
    await sql.end();
  }
}

const log = (page: Page) => page.locator('.chat-log');
/**
 * The last button of the conversation with exactly this name, once it can be used: the assistant's offer
 * comes in turns (docs/product.md §4, 800 ms a message), and an answered confirmation holds "Yes, replace the code".
 */
async function lastButton(page: Page, name: string) {
  const button = log(page).getByRole('button', { name, exact: true }).last();
  await expect(button).toBeEnabled();
  return button;
}
/**
 * The element is on screen and is what the browser hits at its centre and towards its four corners: nothing
 * (the floating buttons, the live preview's launcher) is drawn over it.
 */
async function expectUncovered(locator: Locator, what: string) {
  const found = await locator.boundingBox();
  expect(found, `${what} has a box`).not.toBeNull();
  const { x, y, width, height } = found!;
  const points = [
    [x + width / 2, y + height / 2],
    // A quarter in from each corner: inside round buttons too.
    [x + width / 4, y + height / 4],
    [x + (width * 3) / 4, y + height / 4],
    [x + width / 4, y + (height * 3) / 4],
    [x + (width * 3) / 4, y + (height * 3) / 4],
  ];
  const covered = await locator.evaluate((element, spots) => {
    const doc = element.ownerDocument;
    return spots
      .map(([px, py]) => ({ px, py, top: doc.elementFromPoint(px, py) }))
      .filter(({ top }) => !(top !== null && (element === top || element.contains(top))))
      .map(({ px, py, top }) => `${Math.round(px)},${Math.round(py)}: ${top?.outerHTML.slice(0, 80) ?? 'nothing'}`);
  }, points);
  expect(y, `${what} is below the window's top`).toBeGreaterThanOrEqual(0);
  expect(covered, `${what} is not covered`).toEqual([]);
  expect(y + height, `${what} is above the window's bottom`).toBeLessThanOrEqual(844.5);
}

/** Set DEPLOY_SHOTS_DIR (e.g. /tmp/shots-deploy) to look at the phone screens. */
const shotsDir = process.env.DEPLOY_SHOTS_DIR;

const welcomes = (page: Page, lang: 'en' | 'es') =>
  log(page).locator('.chat-bubble--assistant', { hasText: words[lang].welcome });

for (const lang of ['en', 'es'] as const) {
  const w = words[lang];
  const f = w.flows;

  test(`the deploy assistant replaces the code and unpublishes from its chat, after a confirmation (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(420_000);
    const { account, token } = await publishedSpark(request, lang);
    await useSession(context, account, lang);
    await page.goto('/deploy');
    const panel = page.getByTestId('deploy-panel');
    await expect(panel.getByTestId('deploy-snippet')).toContainText(token);
    await expect(welcomes(page, lang)).toHaveCount(1);

    // A new code: the assistant asks first; "no" changes nothing.
    await (await lastButton(page, w.rotateButton)).click();
    const confirmRotate = plain(fill(f.deployConfirmRotate, { name: w.name }));
    await expect(log(page)).toContainText(confirmRotate);
    await snap(page, `deploy-chat-confirm-rotate-${lang}`);
    await (await lastButton(page, f.deployNo)).click();
    await expect(log(page)).toContainText(f.deployKept);
    expect(await configStatus(request, token)).toBe(200);

    await (await lastButton(page, w.rotateButton)).click();
    await (await lastButton(page, f.deployYesRotate)).click();
    await expect(log(page)).toContainText(plain(fill(f.deployRotated, { name: w.name })));
    // At once: the old token is dead on the public API, and the panel shows the new code.
    expect(await configStatus(request, token)).toBe(404);
    const snippet = panel.getByTestId('deploy-snippet');
    await expect(snippet).not.toContainText(token);
    const fresh = /data-token="([^"]+)"/.exec((await snippet.textContent()) ?? '')![1];
    expect(fresh).toMatch(/^dt_/);
    expect(await configStatus(request, fresh)).toBe(200);
    await snap(page, `deploy-chat-rotated-${lang}`);

    // Unpublish, confirmed: the token dies and the plan's place is free again.
    await (await lastButton(page, w.unpublishButton)).click();
    await expect(log(page)).toContainText(plain(fill(f.deployConfirmUnpublish, { name: w.name })));
    await (await lastButton(page, f.deployYesUnpublish)).click();
    await expect(log(page)).toContainText(plain(fill(f.deployUnpublished, { name: w.name, used: '0', limit: '1' })));
    await expect(panel.getByTestId('deploy-publish')).toBeVisible();
    await expect(panel).toContainText(w.deploy.notPublished);
    expect(await configStatus(request, fresh)).toBe(404);
    await snap(page, `deploy-chat-unpublished-${lang}`);
  });

  test(`?q= picks the Spark it names, its snippet is copied, and the panel's own unpublish asks before it acts (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(300_000);
    const { account, token } = await publishedSpark(request, lang);
    // A second Spark, not published: whichever the panel shows by default, ?q= must pick the one it names.
    const other = `${w.name} II`;
    await dataOf(
      await request.post('/api/v1/sparks', {
        headers: account.headers,
        data: { name: other, options: { language: lang } },
      }),
    );
    await useSession(context, account, lang);
    const panel = page.getByTestId('deploy-panel');
    // The message ?q= sends, read to its end (a reload before that would cut it off).
    const sent = page.waitForResponse(
      (r) => r.url().includes('/spark-sys/deploy/chat') && new URL(r.url()).searchParams.get('input.text') === other,
    );
    await page.goto(`/deploy?q=${encodeURIComponent(other)}`);
    await expect(panel.getByRole('combobox')).toHaveValue(/.+/, { timeout: 60_000 });
    await expect(panel.getByRole('combobox').locator('option:checked')).toHaveText(other);
    await expect(panel.getByTestId('deploy-publish')).toBeVisible();
    // The conversation opens with the Spark's name as the owner's message.
    await expect(log(page).locator('.chat-bubble--human').filter({ hasText: other })).toHaveCount(1);
    // ?q= acts once: it leaves the address, and a reload neither sends it again nor forgets the Spark.
    await expect(page).toHaveURL(/\/deploy$/);
    await (await sent).finished();
    await page.reload();
    await expect(panel.getByRole('combobox').locator('option:checked')).toHaveText(other, { timeout: 60_000 });
    await expect(log(page).locator('.chat-bubble--human').filter({ hasText: other })).toHaveCount(1);
    await page.goto(`/deploy?q=${encodeURIComponent(w.name.toUpperCase())}`);
    await expect(panel.getByRole('combobox').locator('option:checked')).toHaveText(w.name);
    await expect(panel.getByTestId('deploy-snippet')).toContainText(token);
    // The copy button puts the whole snippet on the clipboard and says so.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await panel.getByTestId('deploy-copy').click();
    await expect(panel.getByTestId('deploy-copy')).toHaveText(w.deploy.copied);
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toBe(await panel.getByTestId('deploy-snippet').textContent());
    expect(copied).toContain(`data-token="${token}"`);
    await panel.getByRole('button', { name: w.deploy.unpublish, exact: true }).click();
    await expect(panel).toContainText(w.deploy.confirmUnpublish);
    await panel.getByRole('button', { name: w.deploy.cancel }).click();
    expect(await configStatus(request, token)).toBe(200);
    await panel.getByRole('button', { name: w.deploy.unpublish, exact: true }).click();
    await panel.getByTestId('deploy-confirm').click();
    await expect(panel.getByTestId('deploy-publish')).toBeVisible();
    expect(await configStatus(request, token)).toBe(404);
  });

  test(`on a phone the deploy chat comes first and the panel slides over it, nothing covered (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(120_000);
    const { account, token } = await publishedSpark(request, lang);
    await useSession(context, account, lang);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/deploy');
    // The chat first: its welcome and its message box, not under the panel, the launcher or the floating buttons.
    await expect(welcomes(page, lang)).toHaveCount(1);
    const panel = page.getByTestId('deploy-panel');
    await expect(panel).toBeHidden();
    // The live preview's launcher is on the page.
    await expect(page.locator('[data-sparks-widget]')).toHaveCount(1);
    await page.waitForLoadState('networkidle');
    const composer = page.getByRole('textbox', { name: w.chat.composer.label });
    await expectUncovered(composer, 'the message box');
    // Something typed, so the send button takes clicks (a disabled one lets them through to the box).
    await composer.fill(w.name);
    await expectUncovered(page.getByRole('button', { name: w.chat.composer.send }), 'the send button');
    await expectUncovered(welcomes(page, lang), 'the welcome');
    await shotInto(shotsDir, page, `deploy-phone-chat-${lang}`, 300);

    // The panel from the header's button: it covers the chat, the floating buttons step aside.
    const toggle = page.getByRole('button', { name: w.page.openPanel });
    await expectUncovered(toggle, 'the panel button');
    await toggle.click();
    await expect(panel).toBeVisible();
    await expect(page.locator('.floating-buttons')).toBeHidden();
    const snippet = panel.getByTestId('deploy-snippet');
    await expect(snippet).toContainText(token);
    const copy = panel.getByRole('button', { name: w.deploy.copy, exact: true });
    await page.waitForTimeout(400); // the panel slides in
    await shotInto(shotsDir, page, `deploy-phone-panel-${lang}`, 0);
    for (const [what, element] of [
      ['the snippet', snippet],
      ['the copy button', copy],
      ['the unpublish button', panel.getByRole('button', { name: w.deploy.unpublish, exact: true })],
    ] as const) {
      await element.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await expectUncovered(element, what);
    }
    // Scrolled to its end, its last block clears the live preview's launcher.
    await panel.evaluate((el) => {
      const side = el.closest('.deploy-page__side');
      side?.scrollTo(0, side.scrollHeight);
    });
    await expectUncovered(
      panel.getByRole('heading', { name: w.deploy.conversations, exact: true }),
      'the last heading',
    );
    await expectUncovered(panel.getByText(w.deploy.noConversations), 'the last line');
    await shotInto(shotsDir, page, `deploy-phone-panel-end-${lang}`, 0);
    // Closed with its own button (or Escape): the chat again, the focus back on the header's button.
    await page.getByRole('button', { name: w.page.closePanel }).click();
    await expect(panel).toBeHidden();
    await expect(toggle).toBeFocused();
    await toggle.click();
    await expect(panel).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(page.locator('.floating-buttons')).toBeVisible();
  });

  test(`a deploy conversation whose last message is more than 24 h old greets afresh (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(300_000);
    const account = await signUp(request, lang, 'deployfresh');
    await useSession(context, account, lang);
    await page.goto('/deploy');
    await expect(welcomes(page, lang)).toHaveCount(1);
    // A day has not passed: coming back shows the same conversation, no second welcome.
    await ageDeployConversation(account, 23);
    await page.reload();
    await expect(log(page).locator('.chat-bubble--assistant').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(welcomes(page, lang)).toHaveCount(1);
    // More than 24 h: a fresh welcome under the old one.
    await ageDeployConversation(account, 2);
    await page.reload();
    await expect(welcomes(page, lang)).toHaveCount(2);
    await snap(page, `deploy-chat-fresh-welcome-${lang}`);
  });
}
