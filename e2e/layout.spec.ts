import fs from 'node:fs';
import path from 'node:path';

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import enBilling from '../web/public/locales/en/billing.json';
import enCommon from '../web/public/locales/en/common.json';
import enLayout from '../web/public/locales/en/layout.json';
import enObjectives from '../web/public/locales/en/objectives.json';
import enSparks from '../web/public/locales/en/sparks.json';
import esBilling from '../web/public/locales/es/billing.json';
import esCommon from '../web/public/locales/es/common.json';
import esLayout from '../web/public/locales/es/layout.json';
import esObjectives from '../web/public/locales/es/objectives.json';
import esSparks from '../web/public/locales/es/sparks.json';
import { signUp, useSession, type Account } from './support/account';
import { fill } from './support/catalogues';
import { allowDeployments } from './support/sparks';

/**
 * The signed-in layout against the real api + worker (issue 7, part A), in English and in Spanish: the sidebar's
 * Menu and Profile dropdowns, the pinned and recent Sparks with the "N of M" pager, pin/unpin and delete
 * ("Borrar") from a row's dropdown, the Spark page's editable title, the objectives panel and its ring, the
 * free-trial label and the start-plan button, the chat's close button and a Spark that is not found (issue 18).
 */

const texts = {
  en: { common: enCommon, layout: enLayout, sparks: enSparks, objectives: enObjectives, billing: enBilling },
  es: { common: esCommon, layout: esLayout, sparks: esSparks, objectives: esObjectives, billing: esBilling },
} as const;

/** Screenshots for looking at the screens: set LAYOUT_SHOTS_DIR (e.g. /tmp/shots-layout) to take them. */
const shotsDir = process.env.LAYOUT_SHOTS_DIR;
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function shot(page: Page, name: string, viewport: 'desktop' | 'mobile' = 'desktop') {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.locator('.page-loading, .boot-screen').first().waitFor({ state: 'detached' });
  // Let the sliding panels and the drawer finish moving.
  await page.evaluate(`Promise.race([
    Promise.allSettled(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished)),
    new Promise((resolve) => setTimeout(resolve, 1500)),
  ])`);
  await page.screenshot({ path: path.join(shotsDir, `${name}-${viewport}.png`) });
}

async function createSparks(request: APIRequestContext, account: Account, names: string[]) {
  const created: { _id: string; name: string }[] = [];
  // One after the other, so "newest first" is the reverse of this order.
  for (const name of names) {
    const response = await request.post('/api/v1/sparks', { data: { name }, headers: account.headers });
    expect(response.status(), await response.text()).toBe(201);
    created.push(((await response.json()) as { data: { _id: string; name: string } }).data);
  }
  return created;
}

test.use({ locale: 'en-US', viewport: DESKTOP });

for (const lang of ['en', 'es'] as const) {
  const { common, layout, sparks, objectives, billing } = texts[lang];
  const pager = (page: number, pages: number) => fill(sparks.pager.position, { page, pages });

  test(`sidebar, Spark page and objectives (${lang})`, async ({ page, request, context }) => {
    test.setTimeout(150_000);
    const account = await signUp(request, lang, 'layout');
    // Five: the free plan's Spark limit (plans.limit_sparks), two pages of 4 on this window.
    const names = [1, 2, 3, 4, 5].map((n) => (lang === 'en' ? `Bakery ${n}` : `Panadería ${n}`));
    const created = await createSparks(request, account, names);
    const byName = new Map(created.map((spark) => [spark.name, spark._id]));
    await useSession(context, account, lang);

    // — home: the sidebar's top bar, and the recent Sparks 4 at a time on a 900 px tall window (docs/product.md §9) —
    await page.goto('/');
    const topBar = page.getByRole('navigation', { name: common.nav.label });
    await expect(topBar.getByRole('button', { name: layout.menu.button })).toBeVisible();
    const sparksNav = page.getByRole('navigation', { name: sparks.nav.label });
    const recent = sparksNav.getByRole('region', { name: sparks.nav.recent });
    const pagerText = page.getByTestId('sparks-pager');
    await expect(recent.getByRole('link')).toHaveText([names[4], names[3], names[2], names[1]]);
    await expect(pagerText).toHaveText(pager(1, 2));
    await page.getByRole('button', { name: sparks.pager.next }).click();
    await expect(recent.getByRole('link')).toHaveText([names[0]]);
    await expect(pagerText).toHaveText(pager(2, 2));
    await page.getByRole('button', { name: sparks.pager.previous }).click();
    await expect(pagerText).toHaveText(pager(1, 2));
    await shot(page, `${lang}-01-home`);

    // — the Menu dropdown: deploy is open during the trial (one published Spark, issue 31) and greyed out only at 0 —
    await topBar.getByRole('button', { name: layout.menu.button }).click();
    await expect(page.getByRole('menu').getByRole('menuitem', { name: common.nav.deploy })).not.toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await page.keyboard.press('Escape');
    await allowDeployments(account, 0);
    await page.reload();
    await topBar.getByRole('button', { name: layout.menu.button }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem')).toHaveText([
      common.nav.settings,
      common.nav.billing,
      new RegExp(`^${common.nav.deploy}`),
      common.nav.newSpark,
      common.nav.onboarding,
      common.nav.analytics,
    ]);
    const deploy = menu.getByRole('menuitem', { name: common.nav.deploy });
    await expect(deploy).toHaveAttribute('aria-disabled', 'true');
    await deploy.hover();
    await expect(page.getByRole('tooltip')).toHaveText(layout.menu.deployDisabled);
    await shot(page, `${lang}-02-menu`);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(topBar.getByRole('button', { name: layout.menu.button })).toBeFocused();

    // — the Profile dropdown: the username cut at 15, the free-trial label, start plan → billing with the plans —
    const displayName = `${account.email.slice(0, 15)}…`;
    const profileButton = topBar.getByRole('button', { name: fill(layout.profile.button, { name: displayName }) });
    await profileButton.click();
    const profileMenu = page.getByRole('menu');
    await expect(profileMenu.getByTestId('profile-plan')).toHaveText(
      fill(layout.profile.freeTrial_other, { count: 15 }),
    );
    await expect(profileMenu.getByRole('menuitem', { name: layout.profile.modify })).toBeVisible();
    await expect(profileMenu.getByRole('menuitem', { name: layout.profile.logout })).toBeVisible();
    await shot(page, `${lang}-03-profile`);
    await profileMenu.getByRole('menuitem', { name: layout.profile.startPlan }).click();
    await expect(page).toHaveURL(/\/billing\?showPlans=true$/);
    const plans = page.getByRole('dialog', { name: billing.plans.title });
    await expect(plans).toHaveAccessibleDescription(billing.plans.lead);
    await shot(page, `${lang}-04-plans`);
    await plans.getByRole('button', { name: billing.plans.close }).click();
    await expect(page).toHaveURL(/\/billing$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common.pages.billing.title);

    // — pin and unpin from a row's dropdown —
    await page.getByRole('button', { name: fill(sparks.row.actions, { name: names[3] }) }).click();
    await page.getByRole('menuitem', { name: sparks.row.pin }).click();
    const pinned = sparksNav.getByRole('region', { name: sparks.nav.pinned });
    await expect(pinned.getByRole('link')).toHaveText([names[3]]);
    await expect(recent.getByRole('link')).toHaveText([names[4], names[2], names[1], names[0]]);
    await expect(pagerText).toHaveText(pager(1, 1));
    await shot(page, `${lang}-05-pinned`);
    await pinned.getByRole('button', { name: fill(sparks.row.actions, { name: names[3] }) }).click();
    await page.getByRole('menuitem', { name: sparks.row.unpin }).click();
    await expect(pinned).toBeHidden();
    await expect(recent.getByRole('link')).toHaveText([names[4], names[3], names[2], names[1]]);

    // — delete: the button waits for exactly "Borrar" —
    await page.getByRole('button', { name: fill(sparks.row.actions, { name: names[4] }) }).click();
    await page.getByRole('menuitem', { name: sparks.row.delete }).click();
    const dialog = page.getByRole('dialog', { name: fill(sparks.delete.title, { name: names[4] }) });
    await expect(dialog).toHaveAccessibleDescription(sparks.delete.body);
    const word = dialog.getByLabel(fill(sparks.delete.typeLabel, { word: 'Borrar' }));
    const confirm = dialog.getByRole('button', { name: sparks.delete.confirm });
    await expect(word).toBeFocused();
    await word.fill('borrar');
    await expect(confirm).toBeDisabled();
    await word.fill('Borrar');
    await expect(confirm).toBeEnabled();
    await shot(page, `${lang}-06-delete`);
    await confirm.click();
    await expect(dialog).toBeHidden();
    await expect(recent.getByRole('link')).toHaveText([names[3], names[2], names[1], names[0]]);
    await expect(pagerText).toHaveText(pager(1, 1));
    const gone = await request.get(`/api/v1/sparks/${byName.get(names[4])}`, { headers: account.headers });
    expect(gone.status()).toBe(404);

    // — the Spark page: active Spark stored, the tag, the title renamed with Enter —
    await recent.getByRole('link', { name: names[3] }).click();
    const sparkId = byName.get(names[3])!;
    await expect(page).toHaveURL(new RegExp(`/spark/${sparkId}$`));
    await expect(page.getByTestId('spark-title')).toHaveText(names[3]);
    await expect(page.getByTestId('spark-tag')).toHaveText('DOC');
    expect(await page.evaluate<string | null>("localStorage.getItem('activeSparkId')")).toBe(sparkId);
    expect((await context.cookies()).find((cookie) => cookie.name === 'activeSparkId')?.value).toBe(sparkId);

    const renamed = lang === 'en' ? 'Cake shop' : 'Pastelería';
    await page.getByTestId('spark-title').click();
    const titleInput = page.getByRole('textbox', { name: sparks.title.input });
    await expect(titleInput).toBeFocused();
    await titleInput.fill('  ');
    await titleInput.press('Enter');
    await expect(page.getByTestId('spark-title')).toHaveText(names[3]);
    await page.getByRole('button', { name: sparks.title.edit }).click();
    await titleInput.fill('Something else');
    await titleInput.press('Escape');
    await expect(page.getByTestId('spark-title')).toHaveText(names[3]);
    await page.getByTestId('spark-title').click();
    await titleInput.fill(renamed);
    await titleInput.press('Enter');
    await expect(page.getByTestId('spark-title')).toHaveText(renamed);
    await expect(recent.getByRole('link', { name: renamed })).toBeVisible();
    await expect
      .poll(async () => {
        const response = await request.get(`/api/v1/sparks/${sparkId}`, { headers: account.headers });
        return ((await response.json()) as { data: { name: string } }).data.name;
      })
      .toBe(renamed);

    // — the objectives panel: the name and the word for 'is', the ring at 0%, then 8% after a completed step —
    const before = await request.get(`/api/v1/objectives/${sparkId}?lang=${lang}`, { headers: account.headers });
    const startProgress = ((await before.json()) as { meta: { progress: number } }).meta.progress;
    expect(startProgress).toBe(0);
    const objectivesButton = page.getByRole('button', { name: objectives.label, exact: true });
    await objectivesButton.click();
    await expect(objectivesButton).toHaveAttribute('aria-expanded', 'true');
    const panel = page.getByRole('complementary', { name: fill(objectives.heading, { name: renamed }) });
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId('objectives-percent')).toHaveText('0%');
    await expect(panel.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    const completed = await request.patch(`/api/v1/objectives/${sparkId}`, {
      data: { stepId: 'business.name', status: 'completed' },
      headers: account.headers,
    });
    expect(completed.ok(), await completed.text()).toBe(true);
    await expect(panel.getByTestId('objectives-percent')).toHaveText('8%', { timeout: 15_000 });
    await expect(panel.getByRole('progressbar')).toHaveAttribute(
      'aria-valuetext',
      fill(objectives.progress, { percent: 8 }),
    );
    const firstGroup = panel.getByRole('button', { expanded: false }).first();
    await firstGroup.click();
    await expect(panel.getByRole('button', { expanded: true }).first()).toContainText(objectives.status.inProgress);
    await shot(page, `${lang}-07-objectives`);
    await page.setViewportSize(PHONE);
    await shot(page, `${lang}-07-objectives`, 'mobile');
    await page.setViewportSize(DESKTOP);
    await panel.getByRole('button', { name: objectives.close }).click();
    await expect(panel).toBeHidden();
    await expect(objectivesButton).toBeFocused();

    // — the close button: chat mode Normal, active Spark cleared, back home —
    await page.getByRole('button', { name: layout.chat.closeSpark }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(await page.evaluate<string | null>("localStorage.getItem('activeSparkId')")).toBeNull();
    expect((await context.cookies()).find((cookie) => cookie.name === 'activeSparkId')?.value ?? '').toBe('');

    // — no objectives button on / and /new-spark —
    await expect(page.getByRole('button', { name: objectives.label, exact: true })).toHaveCount(0);
    await page.goto('/deploy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common.pages.deploy.title);
    await expect(page.getByRole('button', { name: objectives.label, exact: true })).toBeVisible();

    // — phone: the sidebar is a drawer behind the header's button —
    await page.goto('/');
    await page.setViewportSize(PHONE);
    await expect(page.getByRole('navigation', { name: common.nav.label })).toBeHidden();
    await shot(page, `${lang}-08-home`, 'mobile');
    await page.getByRole('button', { name: layout.sidebar.open }).click();
    await expect(page.getByRole('navigation', { name: common.nav.label })).toBeVisible();
    await expect(pagerText).toHaveText(pager(1, 2));
    await shot(page, `${lang}-09-drawer`, 'mobile');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('navigation', { name: common.nav.label })).toBeHidden();
    await page.setViewportSize(DESKTOP);

    // — another user's (or a deleted) Spark: "Spark not found" inside the app, still signed in (issue 18 item 8) —
    await page.goto(`/spark/${byName.get(names[4])}`);
    await expect(page.getByRole('heading', { level: 1, name: sparks.notFound.title })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/spark/${byName.get(names[4])}$`));
    await expect(page.getByRole('navigation', { name: common.nav.label })).toBeVisible();
    expect(await page.evaluate<string | null>("localStorage.getItem('access_token')")).not.toBeNull();
    await shot(page, `${lang}-10-spark-not-found`);
    await page.setViewportSize(PHONE);
    await shot(page, `${lang}-10-spark-not-found`, 'mobile');
    await page.setViewportSize(DESKTOP);
  });
}

test('a long name keeps the profile dropdown its own width, cut with an ellipsis', async ({
  page,
  request,
  context,
}) => {
  const account = await signUp(request, 'en', 'long-name');
  const named = await request.patch('/api/v1/account/profile', {
    data: { firstname: 'Maximiliano Alejandro Bartolomé', lastname: 'de la Santísima Trinidad Fernández-Villaverde' },
    headers: account.headers,
  });
  expect(named.status(), await named.text()).toBe(200);
  await useSession(context, account, 'en');
  await page.goto('/');
  await page.getByRole('button', { name: /^Profile and account/ }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  // It stretched to 806 px of a 1440 px window: Headless UI's anchor writes its own max-width inline.
  expect((await menu.boundingBox())!.width).toBeLessThanOrEqual(320);
  const name = menu.locator('.profile-card__name');
  expect(await name.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  await shot(page, 'en-11-profile-long-name');
});
