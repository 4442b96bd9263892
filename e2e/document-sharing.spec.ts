import { expect, test, type Page } from '@playwright/test';

import enFlows from '../libs/core/src/locales/en/flows.json';
import esFlows from '../libs/core/src/locales/es/flows.json';
import { graphPort } from '../playwright.config';
import { GraphServer } from '../test/integration/support/graph-server';
import enChat from '../web/public/locales/en/chat.json';
import esChat from '../web/public/locales/es/chat.json';
import { signUp, useSession } from './support/account';
import { sendInComposer } from './support/composer';
import { shotInto } from './support/shots';
import { buyPlan, dataOf, makePdf } from './support/sparks';

/**
 * Document sharing (issue 20) in the browser, in English and Spanish, against the real api + worker configured for
 * Microsoft against a local identity platform and Graph this spec starts (playwright.config.ts points the app at
 * it): a zaphire user connects from the attach menu (the new tab signs in and comes back with
 * `q=sharepoint-conected`), the builder chat browses site → library → folder, a PDF is picked and read, the
 * imported document says where it came from, and a test of the Spark answers from it.
 */

const texts = { en: { chat: enChat, flows: enFlows }, es: { chat: esChat, flows: esFlows } } as const;
const SHOTS = process.env.SHARING_SHOTS_DIR;
const PHONE = { width: 390, height: 844 };

// One server for the file's tests (a fixed port): they stay on one worker, one after the other.
test.describe.configure({ mode: 'default' });

let graph: GraphServer;

test.beforeAll(async () => {
  graph = await new GraphServer().start(graphPort);
});

test.afterAll(async () => {
  await graph?.stop();
});

/** The engine's texts take `{name}` placeholders. */
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? `{${key}}`);

const shot = (page: Page, name: string) => shotInto(SHOTS, page, name, 400);

for (const lang of ['en', 'es'] as const) {
  const { chat: t, flows: f } = texts[lang];

  test(`connect Microsoft 365, pick a file in the builder chat, see it read and ask a test about it (${lang})`, async ({
    page,
    request,
    context,
  }) => {
    test.setTimeout(180_000);
    const site = lang === 'en' ? 'Bakery' : 'Panaderia';
    const drive = graph.addDrive('Documents', site);
    const folder = graph.addFolder(drive, lang === 'en' ? 'Menus' : 'Cartas');
    const question = lang === 'en' ? 'How much is the sourdough loaf?' : '¿Cuánto cuesta la hogaza de masa madre?';
    const fact =
      lang === 'en'
        ? 'The sourdough loaf costs four euros and is baked every morning at six.'
        : 'La hogaza de masa madre cuesta cuatro euros y se hornea cada mañana a las seis.';
    graph.addFile(drive, {
      name: 'Menu.pdf',
      parentId: folder.id,
      content: await makePdf(lang === 'en' ? 'Bakery menu' : 'Carta de la panadería', fact),
    });
    graph.addFile(drive, { name: 'Prices.xlsx', parentId: folder.id, content: Buffer.from('PK\u0003\u0004') });

    const account = await signUp(request, lang, 'sharing');
    await buyPlan(request, account, 'price_zaphire_month');
    const spark = await dataOf<{ _id: string }>(
      await request.post('/api/v1/sparks', { data: { name: 'Espiga' }, headers: account.headers }),
    );
    await useSession(context, account, lang);
    // The Spark on the app's own address (APP_URL: localhost, which start.mjs defaults to), as users reach the app:
    // the authorize call sets the cookie that binds the sign-in to this browser, and the callback on APP_URL needs it.
    const appUrl = new URL(test.info().project.use.baseURL!);
    appUrl.hostname = 'localhost';
    await page.goto(new URL(`/spark/${spark._id}`, appUrl).toString());
    const attach = page.getByRole('button', { name: t.attach.button });
    await expect(attach).toBeVisible({ timeout: 15_000 });
    await attach.click();
    const popup = page.waitForEvent('popup');
    await page.getByRole('menuitem', { name: t.attach.connect }).click();
    const tab = await popup;
    // Signed in at the local Microsoft, the callback sends the tab back to the Spark with q=sharepoint-conected, on the
    // app's own address (APP_URL: localhost, where this browser has its session too): the request to add a document is
    // sent by itself, once, and the parameter leaves the address. (The tab stays there: opening the address again
    // would be a second arrival, which sends the request again, as it should.)
    await expect(tab).toHaveURL(new RegExp(`^http://localhost:\\d+/spark/${spark._id}$`), { timeout: 30_000 });
    const log = tab.getByRole('log');
    await expect(log.getByText(t.sharing.request)).toBeVisible({ timeout: 30_000 });
    await expect(log.getByText(f.browseSites)).toBeVisible({ timeout: 30_000 });
    await shot(tab, `${lang}-01-sites`);

    const choose = async (label: string) => {
      const option = log.getByRole('button', { name: label, exact: true }).last();
      await expect(option).toBeEnabled({ timeout: 30_000 });
      await option.click();
    };
    await choose(site);
    await expect(log.getByText(fill(f.browseLibraries, { site }))).toBeVisible({ timeout: 30_000 });
    await choose('Documents');
    const folderLabel = fill(f.browseFolderLabel, { name: lang === 'en' ? 'Menus' : 'Cartas' });
    await choose(folderLabel);
    await expect(log.getByText('Prices.xlsx')).toBeVisible({ timeout: 30_000 });
    await expect(log.getByText(f.browseUnreadableType)).toBeVisible();
    await shot(tab, `${lang}-02-folder`);
    await tab.setViewportSize(PHONE);
    await shot(tab, `${lang}-02-folder-phone`);
    await tab.setViewportSize({ width: 1440, height: 900 });
    await choose('Menu.pdf');

    // Imported and read as an upload is, with where it came from.
    const read = log.locator('.chat-bubble--document').filter({ hasText: 'Menu.pdf' });
    await expect(read).toBeVisible({ timeout: 60_000 });
    const source = log.getByTestId('document-source');
    const from = lang === 'en' ? 'from SharePoint' : 'de SharePoint';
    await expect(source).toHaveText(`${from}: Sites/${site}/${lang === 'en' ? 'Menus' : 'Cartas'}/Menu.pdf`);
    await expect(log.getByRole('button', { name: f.browseAnother }).last()).toBeEnabled({ timeout: 30_000 });
    await shot(tab, `${lang}-03-read`);
    await tab.setViewportSize(PHONE);
    await shot(tab, `${lang}-03-read-phone`);
    await tab.setViewportSize({ width: 1440, height: 900 });

    // A reload does not send the request again.
    await tab.reload();
    await expect(log.getByText(t.sharing.request)).toHaveCount(1, { timeout: 15_000 });

    // A test of the Spark answers from the imported file.
    const created = await dataOf<{ _id: string }>(
      await request.post(`/api/v1/sparks/${spark._id}/tests`, {
        data: { name: 'Prueba', params: { documentId: null, waitResponse: true } },
        headers: account.headers,
      }),
    );
    await tab.goto(`/spark/${spark._id}/test/${created._id}`);
    const box = tab.getByRole('textbox', { name: t.composer.label });
    await expect(box).toBeEditable({ timeout: 30_000 });
    // The test's greeting first (its start message must have been answered before a question goes).
    await expect(tab.getByRole('log').locator('.chat-bubble--assistant').first()).toBeVisible({ timeout: 30_000 });
    await sendInComposer(box, question);
    const answer = tab
      .getByRole('log')
      .locator('.chat-bubble--assistant')
      // Cited by its title, the file name without ".pdf" (issue 34 item 10).
      .filter({ hasText: /Menu, (page|página) \d/ });
    await expect(answer).toBeVisible({ timeout: 60_000 });
    await expect(answer).toContainText(lang === 'en' ? 'four euros' : 'cuatro euros');
    await shot(tab, `${lang}-04-answer`);
  });
}
