import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Pool } from 'pg';

import enFlows from '../libs/engine/src/locales/en/flows.json';
import esFlows from '../libs/engine/src/locales/es/flows.json';
import enDeploy from '../web/public/locales/en/deploy.json';
import esDeploy from '../web/public/locales/es/deploy.json';
import { signUp, useSession, type Account } from './support/account';
import { snap } from './support/shots';
import { allowDeployments, dataOf } from './support/sparks';

/**
 * The deploy assistant's own conversation on /deploy (issue 16), in English and in Spanish: it replaces
 * the code and unpublishes a Spark from the chat, each after a confirmation (the old token dies at once
 * on the public API; unpublishing frees the plan's place), and it greets afresh when its last message
 * is more than 24 hours old (spec §4; the messages are aged in the database). AUTH_SHOTS_DIR keeps
 * screenshots (desktop and 390×844).
 */

// Each step waits for the worker's reply on a machine that may be busy: a generous wait, not a sleep.
const expect = baseExpect.configure({ timeout: 90_000 });

const words = {
  en: {
    flows: enFlows,
    deploy: enDeploy.panel,
    name: 'Northwind Bikes',
    welcome: 'The steps are in the panel',
    unpublishButton: 'Unpublish a Spark',
    rotateButton: 'Replace the code',
  },
  es: {
    flows: esFlows,
    deploy: esDeploy.panel,
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
 * comes in turns (spec §4, 800 ms a message), and an answered confirmation holds "Yes, replace the code".
 */
async function lastButton(page: Page, name: string) {
  const button = log(page).getByRole('button', { name, exact: true }).last();
  await expect(button).toBeEnabled();
  return button;
}
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

  test(`the panel's own unpublish asks before it acts (${lang})`, async ({ page, context, request }) => {
    test.setTimeout(300_000);
    const { account, token } = await publishedSpark(request, lang);
    await useSession(context, account, lang);
    await page.goto('/deploy');
    const panel = page.getByTestId('deploy-panel');
    await expect(panel.getByTestId('deploy-snippet')).toContainText(token);
    await panel.getByRole('button', { name: w.deploy.unpublish, exact: true }).click();
    await expect(panel).toContainText(w.deploy.confirmUnpublish);
    await panel.getByRole('button', { name: w.deploy.cancel }).click();
    expect(await configStatus(request, token)).toBe(200);
    await panel.getByRole('button', { name: w.deploy.unpublish, exact: true }).click();
    await panel.getByTestId('deploy-confirm').click();
    await expect(panel.getByTestId('deploy-publish')).toBeVisible();
    expect(await configStatus(request, token)).toBe(404);
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
