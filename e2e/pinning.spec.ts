import { expect, test } from '@playwright/test';

import enCommon from '../web/public/locales/en/common.json';
import enSparks from '../web/public/locales/en/sparks.json';
import esCommon from '../web/public/locales/es/common.json';
import esSparks from '../web/public/locales/es/sparks.json';
import { signUp, useSession } from './support/account';
import { fill } from './support/catalogues';
import { shotInto } from './support/shots';
import { buyPlan } from './support/sparks';

/**
 * Issue 18 item 10: a user pins at most 4 Sparks. A fifth pin is refused by the server and the row says why;
 * no Spark vanishes from the sidebar, on a Spark's page or on a system page, and the pager counts what is listed.
 */

/** Set PINNING_SHOTS_DIR (e.g. /tmp/shots-pinning) to look at the screens. */
const shotsDir = process.env.PINNING_SHOTS_DIR;
const texts = { en: { common: enCommon, sparks: enSparks }, es: { common: esCommon, sparks: esSparks } } as const;

test.use({ locale: 'en-US', viewport: { width: 1440, height: 900 } });

for (const lang of ['en', 'es'] as const) {
  const { common, sparks } = texts[lang];

  test(`a fifth pin is refused with a message and no Spark vanishes (${lang})`, async ({ page, request, context }) => {
    test.setTimeout(90_000);
    const account = await signUp(request, lang, 'pinning');
    // Six Sparks: more than the free plan's limit (5), so on Emerald.
    await buyPlan(request, account, 'price_emeral_month');
    const names = [1, 2, 3, 4, 5, 6].map((n) => `Spark ${n}`);
    const ids = new Map<string, string>();
    for (const name of names) {
      const response = await request.post('/api/v1/sparks', { data: { name }, headers: account.headers });
      expect(response.status(), await response.text()).toBe(201);
      ids.set(name, ((await response.json()) as { data: { _id: string } }).data._id);
    }
    for (const name of names.slice(0, 4)) {
      const pinned = await request.patch(`/api/v1/sparks/${ids.get(name)}`, {
        data: { pin: true },
        headers: account.headers,
      });
      expect(pinned.status(), await pinned.text()).toBe(200);
    }
    await useSession(context, account, lang);

    await page.goto(`/spark/${ids.get(names[5])}`);
    const sparksNav = page.getByRole('navigation', { name: sparks.nav.label });
    const pinnedList = sparksNav.getByRole('region', { name: sparks.nav.pinned });
    const recent = sparksNav.getByRole('region', { name: sparks.nav.recent });
    const pager = page.getByTestId('sparks-pager');
    await expect(pinnedList.getByRole('link')).toHaveText([names[3], names[2], names[1], names[0]]);
    await expect(recent.getByRole('link')).toHaveText([names[5], names[4]]);
    await expect(pager).toHaveText(fill(sparks.pager.position, { page: 1, pages: 1 }));

    // The fifth pin: refused, said so in the row, and every Spark still listed.
    await recent.getByRole('button', { name: fill(sparks.row.actions, { name: names[4] }) }).click();
    await page.getByRole('menuitem', { name: sparks.row.pin }).click();
    await expect(recent.getByRole('alert')).toHaveText(fill(sparks.row.pinLimit, { max: 4 }));
    await shotInto(shotsDir, page, `${lang}-pin-limit`, 300);
    await expect(pinnedList.getByRole('link')).toHaveText([names[3], names[2], names[1], names[0]]);
    await expect(recent.getByRole('link')).toHaveText([names[5], names[4]]);
    await expect(pager).toHaveText(fill(sparks.pager.position, { page: 1, pages: 1 }));
    const stored = await request.get(`/api/v1/sparks/${ids.get(names[4])}`, { headers: account.headers });
    expect(((await stored.json()) as { data: { pin: boolean } }).data.pin).toBe(false);

    // A system page shows the same four pinned Sparks (none hidden there either).
    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common.pages.settings.title);
    await expect(pinnedList.getByRole('link')).toHaveText([names[3], names[2], names[1], names[0]]);
    await expect(recent.getByRole('link')).toHaveText([names[5], names[4]]);

    // Unpinning one makes room: the fifth pin then works.
    await pinnedList.getByRole('button', { name: fill(sparks.row.actions, { name: names[0] }) }).click();
    await page.getByRole('menuitem', { name: sparks.row.unpin }).click();
    await expect(recent.getByRole('link')).toHaveText([names[5], names[4], names[0]]);
    await recent.getByRole('button', { name: fill(sparks.row.actions, { name: names[4] }) }).click();
    await page.getByRole('menuitem', { name: sparks.row.pin }).click();
    await expect(pinnedList.getByRole('link')).toHaveText([names[4], names[3], names[2], names[1]]);
    await expect(recent.getByRole('link')).toHaveText([names[5], names[0]]);
    await expect(sparksNav.getByRole('alert')).toHaveCount(0);
  });
}
