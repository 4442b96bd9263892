import { expect, test, type Locator, type Page } from '@playwright/test';

import enDeploy from '../web/public/locales/en/deploy.json';
import enLayout from '../web/public/locales/en/layout.json';
import enSparks from '../web/public/locales/en/sparks.json';
import esDeploy from '../web/public/locales/es/deploy.json';
import esLayout from '../web/public/locales/es/layout.json';
import esSparks from '../web/public/locales/es/sparks.json';
import { signUp, useSession } from './support/account';
import { fill } from './support/catalogues';
import { shotInto } from './support/shots';
import { allowDeployments, dataOf, makePdf } from './support/sparks';

/**
 * Issue 34, the new-user walk's rough edges outside the chat, seen as a person sees them: English on a 1440×900
 * desktop and Spanish on a 390×844 phone. A published bakery Spark with an open question and a visitor's
 * conversation: the Unanswered button keeps its icon whole beside the count (item 2), the owner reads the visitor's
 * conversation rendered as the chat renders it (item 6), and deleting the Spark says it is live on the site (item 4).
 */
const SHOTS = process.env.POLISH_SHOTS_DIR;

const cases = {
  en: {
    viewport: { width: 1440, height: 900 },
    name: 'Espiga',
    body: ['Opening hours', 'Monday to Friday: 7:30 to 20:30', 'Saturday: 8:00 to 15:00', 'Sunday: closed'],
    covered: 'What time do you open on Saturday?',
    notCovered: 'Do you have wifi for customers?',
  },
  es: {
    viewport: { width: 390, height: 844 },
    name: 'Espiga',
    body: ['Horario', 'Lunes a viernes: 7:30 a 20:30', 'Sábado: 8:00 a 15:00', 'Domingo: cerrado'],
    covered: '¿A qué hora abrís el sábado?',
    notCovered: '¿Tenéis wifi para clientes?',
  },
} as const;

const texts = {
  en: { sparks: enSparks, deploy: enDeploy, layout: enLayout },
  es: { sparks: esSparks, deploy: esDeploy, layout: esLayout },
} as const;

/** The floating buttons (and the live preview's launcher) whose box overlaps the element's. */
async function coveredBy(page: Page, target: Locator): Promise<string[]> {
  const box = await target.boundingBox();
  if (!box) return ['(not shown)'];
  const floating = page.locator('.floating-button, [data-sparks-widget]');
  const found: string[] = [];
  for (const item of await floating.all()) {
    const other = await item.evaluate((node) => {
      const el = node.shadowRoot?.querySelector('button') ?? node;
      const r = el.getBoundingClientRect();
      return r.width > 0 && el.ownerDocument.defaultView!.getComputedStyle(el).display !== 'none'
        ? { x: r.x, y: r.y, w: r.width, h: r.height }
        : null;
    });
    if (!other) continue;
    const apart =
      other.x >= box.x + box.width ||
      other.x + other.w <= box.x ||
      other.y >= box.y + box.height ||
      other.y + other.h <= box.y;
    if (!apart) found.push((await item.getAttribute('aria-label')) ?? 'floating');
  }
  return found;
}

for (const lang of ['en', 'es'] as const) {
  const c = cases[lang];
  const { sparks, deploy, layout } = texts[lang];

  test(`a published Spark's owner: the Unanswered button, a visitor's conversation, deleting it (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(c.viewport);
    const account = await signUp(request, lang, 'e2e.polish');
    const spark = await dataOf<{ _id: string }>(
      await request.post('/api/v1/sparks', {
        headers: account.headers,
        data: { name: c.name, options: { language: lang } },
      }),
    );
    const file = `espiga-${lang}.pdf`;
    const uploaded = await request.post('/api/v1/bucket', {
      headers: account.headers,
      multipart: {
        sparkId: spark._id,
        name: file,
        file: { name: file, mimeType: 'application/pdf', buffer: await makePdf(c.name, ...c.body) },
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
        { timeout: 60_000 },
      )
      .toEqual(['completed']);
    await allowDeployments(account, 1);
    const deployment = await dataOf<{ token: string }>(
      await request.post(`/api/v1/sparks/${spark._id}/deployment`, { headers: account.headers, data: {} }),
    );
    const site = 'https://www.espiga.example';
    await dataOf(
      await request.post(`/api/v1/sparks/${spark._id}/deployment/origins`, {
        headers: account.headers,
        data: { origin: site },
      }),
    );
    // A visitor asks what the document answers, then what it does not (an open question for the owner).
    const origin = new URL(test.info().project.use.baseURL ?? page.url()).origin;
    const widget = `/api/v1/public/widgets/${deployment.token}`;
    const visitor = await dataOf<{ visitorToken: string }>(
      await request.post(`${widget}/visitors`, { headers: { Origin: origin }, data: {} }),
    );
    const visitorHeaders = { Origin: origin, Authorization: `Bearer ${visitor.visitorToken}` };
    const talk = await dataOf<{ conversationId: string }>(
      await request.post(`${widget}/conversations`, { headers: visitorHeaders, data: {} }),
    );
    for (const text of [c.covered, c.notCovered])
      await dataOf(
        await request.post(`${widget}/conversations/${talk.conversationId}/messages`, {
          headers: visitorHeaders,
          data: { text },
        }),
      );
    await useSession(context, account, lang);

    // — item 2: the Unanswered button shows its count beside a whole icon —
    await page.goto(`/spark/${spark._id}`);
    const open = page.getByRole('button', { name: new RegExp(sparks.unanswered.button) });
    await expect(open).toContainText('1', { timeout: 30_000 });
    const icon = await open.locator('svg').boundingBox();
    expect(icon?.width).toBeGreaterThanOrEqual(16);
    expect(icon?.height).toBeGreaterThanOrEqual(16);
    await shotInto(SHOTS, page, `${lang}-01-unanswered-button`, 300);

    // — item 1: nothing floats over the panel's answer box —
    await open.click();
    const panel = page.getByRole('complementary', { name: sparks.unanswered.heading });
    const group = panel.getByTestId('unanswered-group');
    await group.getByRole('button', { name: sparks.unanswered.answer }).click();
    const answerBox = group.getByRole('textbox', { name: sparks.unanswered.yourAnswer });
    await expect(answerBox).toBeVisible();
    await answerBox.scrollIntoViewIfNeeded();
    // Nothing over the panel at all, wherever its box and hint end up as the owner scrolls.
    await expect.poll(() => coveredBy(page, panel)).toEqual([]);
    await shotInto(SHOTS, page, `${lang}-01b-unanswered-answering`, 300);

    // — item 6: the owner reads the visitor's conversation as the chat shows it —
    await page.goto('/deploy');
    // On a phone the publishing panel opens from the page's header.
    if (lang === 'es') await page.getByRole('button', { name: deploy.page.openPanel }).click();
    await expect(page.locator('.deploy-panel select option:checked')).toHaveText(c.name, { timeout: 15_000 });
    const item = page.getByRole('button', { name: new RegExp(c.covered.replace(/[?¿]/g, '.')) });
    await item.click();
    const block = page.locator('.deploy-panel__block', {
      has: page.getByRole('heading', { name: deploy.panel.conversations }),
    });
    // Cited by its title, the file name without ".pdf" (issue 34 item 10).
    const title = file.replace(/\.pdf$/, '');
    const source = block.locator('.chat-bubble--assistant em', { hasText: title });
    await expect(source.first()).toBeVisible({ timeout: 15_000 });
    await expect(block.getByText(`*${title}`)).toHaveCount(0);
    await expect(block.getByRole('listitem')).toHaveCount(0);
    await expect(block.locator('.chat-bubble--human')).toHaveText([c.covered, c.notCovered]);
    await source.first().scrollIntoViewIfNeeded();
    await shotInto(SHOTS, page, `${lang}-02-visitor-conversation`, 300);

    // — item 7: a page of the site without www was refused; the owner sees it and allows it —
    const bare = 'https://espiga.example';
    expect((await request.get(`${widget}/config`, { headers: { Origin: bare } })).status()).toBe(403);
    await page.reload();
    if (lang === 'es') await page.getByRole('button', { name: deploy.page.openPanel }).click();
    const refused = page.getByTestId('deploy-refused');
    await expect(refused).toContainText(`${deploy.panel.refused} ${bare}`, { timeout: 15_000 });
    await refused.scrollIntoViewIfNeeded();
    await shotInto(SHOTS, page, `${lang}-02e-refused-site`, 300);
    await refused.getByRole('button', { name: fill(deploy.panel.allowSite, { origin: bare }) }).click();
    await expect(refused).toHaveCount(0);
    await expect(page.getByTestId('deploy-origins')).toContainText(bare);
    expect((await request.get(`${widget}/config`, { headers: { Origin: bare } })).status()).toBe(200);
    await page.getByRole('button', { name: new RegExp(c.covered.replace(/[?¿]/g, '.')) }).click();

    // — item 5: the panel in the app's look, apart from the sidebar, in both themes —
    const deployPanel = page.getByTestId('deploy-panel');
    const looks = await deployPanel.evaluate((panel) => {
      const view = panel.ownerDocument.defaultView!;
      const button = panel.querySelector('.deploy-panel__row button');
      const select = panel.querySelector('select');
      const sidebar = panel.ownerDocument.querySelector('.sidebar');
      return {
        buttonHeight: button ? parseFloat(view.getComputedStyle(button).minHeight) : 0,
        selectLook: select ? view.getComputedStyle(select).appearance : '',
        selectHeight: select ? parseFloat(view.getComputedStyle(select).minHeight) : 0,
        gap: sidebar ? panel.getBoundingClientRect().left - sidebar.getBoundingClientRect().right : null,
      };
    });
    expect(looks.buttonHeight).toBeGreaterThanOrEqual(40);
    expect(looks.selectLook).toBe('none');
    expect(looks.selectHeight).toBeGreaterThanOrEqual(40);
    if (lang === 'en') expect(looks.gap).toBeGreaterThanOrEqual(16);
    await deployPanel.evaluate((panel) => panel.scrollIntoView());
    await shotInto(SHOTS, page, `${lang}-02c-deploy-light`, 300);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shotInto(SHOTS, page, `${lang}-02d-deploy-dark`, 300);
    await page.emulateMedia({ colorScheme: 'light' });

    // — item 4, on this page: deleting the Spark says it is live on the site; the word's field has the focus —
    const launcher = page.locator('[data-sparks-widget]');
    await expect(launcher).toHaveCount(1, { timeout: 15_000 });
    // On a phone the Sparks are in the menu.
    if (lang === 'es') await page.getByRole('button', { name: layout.sidebar.open, exact: true }).click();
    await page.getByRole('button', { name: fill(sparks.row.actions, { name: c.name }) }).click();
    await page.getByRole('menuitem', { name: sparks.row.delete }).click();
    const dialog = page.getByRole('dialog', { name: fill(sparks.delete.title, { name: c.name }) });
    // Where the widget was seen: the site just allowed, whose page then loaded it.
    await expect(dialog).toContainText(fill(sparks.delete.liveOn, { site: bare }));
    await expect(dialog.getByLabel(fill(sparks.delete.typeLabel, { word: 'Borrar' }))).toBeFocused();
    // — item 1: the live preview's launcher is under the dialog and its backdrop —
    const onTop = await launcher.evaluate((host) => {
      const box = host.shadowRoot!.querySelector('button')!.getBoundingClientRect();
      return host.ownerDocument.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === host;
    });
    expect(onTop).toBe(false);
    await shotInto(SHOTS, page, `${lang}-03-delete-live`, 400);
    await dialog.getByRole('button', { name: sparks.delete.cancel }).click();

    // The live preview leaves with /deploy (the app's own navigation: no page load clears it).
    const sparkLink = page.getByRole('link', { name: c.name, exact: true }).first();
    if (!(await sparkLink.isVisible()))
      await page.getByRole('button', { name: layout.sidebar.open, exact: true }).click();
    await sparkLink.click();
    await expect(page).toHaveURL(new RegExp(`/spark/${spark._id}$`));
    await expect(page.getByRole('button', { name: new RegExp(sparks.unanswered.button) })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.locator('[data-sparks-widget]')).toHaveCount(0);
  });
}
