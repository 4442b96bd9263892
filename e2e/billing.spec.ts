import fs from 'node:fs';
import path from 'node:path';

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import enBilling from '../web/public/locales/en/billing.json';
import enChat from '../web/public/locales/en/chat.json';
import enCommon from '../web/public/locales/en/common.json';
import enLayout from '../web/public/locales/en/layout.json';
import enObjectives from '../web/public/locales/en/objectives.json';
import esBilling from '../web/public/locales/es/billing.json';
import esChat from '../web/public/locales/es/chat.json';
import esCommon from '../web/public/locales/es/common.json';
import esLayout from '../web/public/locales/es/layout.json';
import esObjectives from '../web/public/locales/es/objectives.json';
import enFlows from '../libs/core/src/locales/en/flows.json';
import esFlows from '../libs/core/src/locales/es/flows.json';
import { signUp, useSession } from './support/account';
import { fill } from './support/catalogues';
import { sendInComposer } from './support/composer';
import { buyPlan, onTenant, sparkWithTest } from './support/sparks';

/**
 * The billing screens against the real api, worker and database (issue 15), in English and in Spanish: the
 * profile dropdown's start-plan button → the plans popup → the local provider's test checkout → the plan in the
 * dropdown; a test chat until the plan's interactions run out (the buy-more prompt on the next send) → the
 * out-of-interactions modal → the credit-pack popup → a pack paid at once → the congratulation message to the
 * billing assistant → the test chat answering again; and the trial-ended popup after a 402 TRIAL_ENDED, the trial's end moved in
 * the database (no sleeping).
 */

const texts = {
  en: {
    billing: enBilling,
    layout: enLayout,
    chat: enChat,
    flows: enFlows,
    common: enCommon,
    objectives: enObjectives,
  },
  es: {
    billing: esBilling,
    layout: esLayout,
    chat: esChat,
    flows: esFlows,
    common: esCommon,
    objectives: esObjectives,
  },
} as const;

/** Screenshots for looking at the screens: set BILLING_SHOTS_DIR (e.g. /tmp/shots-billing) to take them. */
const shotsDir = process.env.BILLING_SHOTS_DIR;

const PHONE = { width: 390, height: 844 };

async function shot(page: Page, name: string, phoneToo = false) {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.waitForTimeout(350); // dialogs and spinners finish moving
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`) });
  if (!phoneToo) return;
  const desktop = page.viewportSize();
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(350);
  await page.screenshot({ path: path.join(shotsDir, `${name}-phone.png`) });
  if (desktop) await page.setViewportSize(desktop);
}

/** The billing assistant's objectives panel on /billing, opened. */
async function billingObjectives(page: Page, lang: 'en' | 'es') {
  const { objectives, common } = texts[lang];
  const button = page.getByRole('button', { name: objectives.label, exact: true });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  return page.getByRole('complementary', { name: fill(objectives.heading, { name: common.pages.billing.title }) });
}

async function dataOf<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

const profileButton = (page: Page, lang: 'en' | 'es') =>
  page.getByRole('button', { name: new RegExp(`^${texts[lang].layout.profile.button.split('{{')[0]}`) });

/** What the billing tests ask a Spark's test chat (a Spark without documents still answers it). */
const QUESTION = { en: 'What are your opening hours?', es: '¿Qué horario tenéis?' } as const;

/** Sends QUESTION in the open test chat once the page has loaded and its composer takes a message. */
async function askInTest(page: Page, lang: 'en' | 'es') {
  await expect(page.getByTestId('test-loading-overlay')).toHaveCount(0, { timeout: 15_000 });
  const box = page.getByRole('textbox', { name: texts[lang].chat.composer.label });
  await sendInComposer(box, QUESTION[lang]);
}

const money = (text: string) => text.replace(/\s/g, ' ');

for (const lang of ['en', 'es'] as const) {
  const { billing, layout, chat, flows } = texts[lang];
  // The catalogue's names as each language writes them (Spanish: no thousands separator at 1000).
  const thousand = lang === 'en' ? '1,000 ITx' : '1000 ITx';
  const packNames = ['100 ITx', '250 ITx', '500 ITx', thousand];

  test(`a new user buys a plan on the local test checkout, chats until its interactions run out, buys a credit pack and chats again (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(240_000);
    const account = await signUp(request, lang, 'billing');
    await useSession(context, account, lang);
    await page.goto('/');

    // — the profile dropdown: the free trial, and start plan → /billing with the plans and a message —
    await profileButton(page, lang).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByTestId('profile-plan')).toHaveText(fill(layout.profile.freeTrial_other, { count: 15 }));
    await menu.getByRole('menuitem', { name: layout.profile.startPlan }).click();
    await expect(page).toHaveURL(/\/billing\?showPlans=true$/);
    const plans = page.getByRole('dialog', { name: billing.plans.title });
    await expect(plans.getByRole('listitem').filter({ has: page.getByRole('button') })).toHaveCount(3);
    await expect(plans.getByTestId('plan-ruby')).toContainText('Ruby');
    await expect(plans.getByTestId('plan-ruby')).toContainText(
      fill(billing.plans.interactions_other, { n: '600', count: 600 }),
    );
    await expect(plans.getByTestId('plan-emeral')).toContainText(lang === 'en' ? '€90.00' : '90,00');
    await expect(plans.getByTestId('plan-zaphire')).toContainText(billing.plans.documentSharing);
    await shot(page, `${lang}-01-plans`);

    // — choose Ruby: the local provider's checkout page, labelled as a test payment —
    await plans.getByRole('button', { name: fill(billing.plans.choose, { name: 'Ruby' }) }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_local_[0-9a-f]+$/);
    const checkout = page.getByTestId('checkout');
    await expect(checkout.getByText(billing.checkout.badge, { exact: true })).toBeVisible();
    await expect(checkout.getByTestId('checkout-product')).toHaveText(fill(billing.checkout.plan, { name: 'Ruby' }));
    const rubyPrice = lang === 'en' ? '€45.00' : '45,00 €';
    await expect
      .poll(async () => money(await checkout.getByTestId('checkout-price').innerText()))
      .toBe(fill(billing.checkout.perMonth, { price: rubyPrice }));
    await expect(checkout.getByRole('textbox')).toHaveCount(0); // no card data
    await shot(page, `${lang}-02-checkout`);
    await checkout.getByRole('button', { name: new RegExp(billing.checkout.pay.split('{{')[0]) }).click();

    // — back on /billing: the result, the start-plan message in the billing chat, Ruby in the dropdown —
    await expect(page).toHaveURL(/\/billing$/);
    await expect(page.getByTestId('billing-notice')).toHaveText(fill(billing.result.planPaid, { name: 'Ruby' }));
    await expect(page.locator('.chat-bubble--human', { hasText: billing.startPlanMessage })).toHaveCount(1);
    // The paid plan is said in the chat, and the billing assistant shows the plan and usage read anew.
    const planStarted = fill(billing.planStarted, { plan: 'Ruby' });
    await expect(page.locator('.chat-bubble--human', { hasText: planStarted })).toHaveCount(1);
    await expect(page.getByRole('region', { name: flows.usageCardTitle }).last()).toContainText('Ruby');
    await profileButton(page, lang).click();
    await expect(page.getByRole('menu').getByTestId('profile-plan')).toHaveText('Ruby');
    await expect(page.getByRole('menuitem', { name: layout.profile.startPlan })).toHaveCount(0);
    // The embedded test provider has no customer portal: the paid plan is managed by changing it.
    await expect(page.getByRole('menuitem', { name: layout.profile.manageSubscription })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: layout.profile.changePlan })).toBeVisible();
    await shot(page, `${lang}-03-paid`);
    await page.keyboard.press('Escape');

    // — the billing assistant's objectives: plan and usage seen, a plan chosen and paid; no pack yet (3 of 4) —
    const panel = await billingObjectives(page, lang);
    await expect(panel.getByTestId('objectives-percent')).toHaveText('75%', { timeout: 15_000 });
    await shot(page, `${lang}-03b-objectives`, true);
    await page.getByRole('button', { name: texts[lang].objectives.close }).click();
    const subscriptions = await dataOf<Array<{ productName: string; status: string }>>(
      await request.get(
        `/api/v1/billing/subscriptions/${encodeURIComponent(
          (
            await dataOf<{ tenants: Array<{ customerId: string }> }>(
              await request.get('/api/v1/account/profile', { headers: account.headers }),
            )
          ).tenants[0].customerId,
        )}`,
        { headers: account.headers },
      ),
    );
    expect(subscriptions.map((s) => s.productName)).toEqual(['Ruby']);

    // — the plans popup now hides Ruby, and closes with Escape (there is a subscription); the billing page's
    // "Change plan" opens it —
    await page.getByRole('button', { name: billing.manage.changePlan }).click();
    await expect(page).toHaveURL(/\/billing\?showPlans=true$/);
    const again = page.getByRole('dialog', { name: billing.plans.title });
    await expect(again.getByTestId('plan-emeral')).toBeVisible();
    await expect(again.getByTestId('plan-ruby')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(again).toHaveCount(0);
    await expect(page).toHaveURL(/\/billing$/);

    // — chatting in a test until the period's interactions run out: the last of the 600 is answered (the
    // 599 before it are set in the database, no 599 sends), the next send gets the buy-more prompt —
    const { spark, testCase } = await sparkWithTest(request, account, 'Ruby Spark', lang);
    const testPath = `/spark/${spark._id}/test/${testCase._id}`;
    const used = async () =>
      (
        await dataOf<{ tenants: Array<{ usage: { interactions: number } }> }>(
          await request.get('/api/v1/account/profile', { headers: account.headers }),
        )
      ).tenants[0].usage.interactions;
    const ask = () => askInTest(page, lang);
    await onTenant(account, 'UPDATE tenants SET usage_interactions = 599');
    await page.goto(testPath);
    const answers = page.locator('.chat-bubble--assistant');
    await expect(answers.first()).toBeVisible({ timeout: 30_000 }); // the greeting
    const greeted = await answers.count();
    await ask();
    await expect.poll(() => answers.count(), { timeout: 30_000 }).toBeGreaterThan(greeted);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect.poll(used, { timeout: 15_000 }).toBe(600);
    await ask();
    const prompt = page.getByRole('dialog', { name: chat.dialogs.buyMorePrompt.title });
    await expect(prompt).toContainText(chat.dialogs.buyMorePrompt.text);
    await shot(page, `${lang}-03c-used-up-in-a-test`);
    await prompt.getByRole('button', { name: chat.dialogs.notNow }).click();
    expect(await used()).toBe(600);

    // — the period's 600 interactions used up and no credits: the out-of-interactions modal on the next page —
    await page.goto('/');
    const out = page.getByRole('dialog', { name: billing.outOfInteractions.title });
    // The profile and the credits are read first. (The dialog's own box is empty: its buttons show it is open.)
    await expect(out.getByRole('button', { name: billing.outOfInteractions.buyMore })).toBeVisible({ timeout: 30_000 });
    await expect(out).toHaveAccessibleDescription(
      fill(billing.outOfInteractions.bodyPlan_other, { count: 600, plan: 'Ruby' }),
    );
    await shot(page, `${lang}-04-out-of-interactions`);
    await out.getByRole('button', { name: billing.outOfInteractions.buyMore }).click();

    // — the credit-pack popup: sorted by interactions, 4 a page, a pager, prices unit_amount / 100 —
    const packs = page.getByRole('dialog', { name: billing.credits.title });
    const cards = packs.getByTestId('credit-pack');
    await expect(cards).toHaveCount(4);
    await expect(cards.locator('.billing-card__name')).toHaveText(packNames);
    expect((await cards.locator('.billing-card__price').allInnerTexts()).map(money)).toEqual(
      lang === 'en' ? ['$10.00', '$22.50', '$40.00', '$70.00'] : ['10,00 US$', '22,50 US$', '40,00 US$', '70,00 US$'],
    );
    await expect(packs.getByText(fill(billing.credits.page, { page: 1, pages: 2 }))).toBeVisible();
    await shot(page, `${lang}-05-credit-packs`);
    await packs.getByRole('button', { name: billing.credits.next }).click();
    await expect(cards).toHaveCount(1);
    await expect(cards.locator('.billing-card__name')).toHaveText(lang === 'en' ? '2,500 ITx' : '2500 ITx');
    await packs.getByRole('button', { name: billing.credits.previous }).click();
    await expect(cards).toHaveCount(4);

    // — buying: a spinner on that pack, every button disabled; with a paid plan it is paid at once —
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/billing/credits/purchase', async (route) => {
      await held;
      await route.continue();
    });
    await packs.getByRole('button', { name: fill(billing.credits.buy, { name: '100 ITx' }) }).click();
    // On a paid plan the pack is charged at once: its amount is confirmed first (issue 34, item 8).
    const price = lang === 'en' ? '$10.00' : '10,00 US$';
    const confirm = packs.getByRole('group');
    await expect(confirm).toBeVisible();
    expect(money(await confirm.locator('p').innerText())).toBe(
      fill(billing.credits.confirm, { name: '100 ITx', price, plan: 'Ruby' }),
    );
    await expect(cards).toHaveCount(0);
    const pay = confirm.locator('.button--primary');
    expect(money(await pay.innerText())).toBe(fill(billing.credits.pay, { price }));
    await expect(pay).toBeFocused();
    await shot(page, `${lang}-06-confirm-pack`);
    await pay.click();
    await expect(cards.first().getByTestId('pack-spinner')).toBeVisible();
    await expect(cards.nth(1).getByTestId('pack-spinner')).toHaveCount(0);
    for (const button of await packs.getByRole('button').all()) await expect(button).toBeDisabled();
    await shot(page, `${lang}-06-buying`);
    release();
    await expect(page).toHaveURL(/\/billing$/);
    await expect(page.getByTestId('billing-notice')).toHaveText(fill(billing.result.packPaid, { name: '100 ITx' }));
    const congratulation = fill(billing.congratulation_other, { pack: '100 ITx', count: 100 });
    await expect(page.locator('.chat-bubble--human', { hasText: congratulation })).toHaveCount(1);
    await expect(packs).toHaveCount(0);
    // The billing assistant answers with the plan and usage read anew: Ruby, 600 of 600, 100 bought.
    const usage = page.getByRole('region', { name: flows.usageCardTitle }).last();
    await expect(usage).toContainText('Ruby');
    await expect(usage).toContainText(
      fill(flows.usageOf.replace(/\{(\w+)\}/g, '{{$1}}'), { used: '600', limit: '600' }),
    );
    await expect(usage.locator('.chat-card__row', { hasText: flows.usageCredits })).toContainText('100');
    await expect(
      page
        .getByRole('region', { name: fill(flows.planCurrent.replace('{name}', '{{name}}'), { name: 'Ruby' }) })
        .last(),
    ).toBeVisible();
    await shot(page, `${lang}-07-pack-paid`);
    const available = await dataOf<{ total: number }>(
      await request.get('/api/v1/billing/credits/interactions/available', { headers: account.headers }),
    );
    expect(available.total).toBe(100);

    // A reload does not send the congratulation again.
    await page.reload();
    await expect(page.locator('.chat-bubble--human', { hasText: billing.startPlanMessage })).toHaveCount(1);
    await expect(page.locator('.chat-bubble--human', { hasText: planStarted })).toHaveCount(1);
    await expect(page.locator('.chat-bubble--human', { hasText: congratulation })).toHaveCount(1);
    // Every billing objective is done now.
    const done = await billingObjectives(page, lang);
    await expect(done.getByTestId('objectives-percent')).toHaveText('100%', { timeout: 15_000 });

    // — back to the test: chatting again, the answer taken from the pack —
    await page.goto(testPath);
    await expect(answers.first()).toBeVisible({ timeout: 30_000 });
    const before = await answers.count();
    await ask();
    await expect.poll(() => answers.count(), { timeout: 30_000 }).toBeGreaterThan(before);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect
      .poll(
        async () =>
          (
            await dataOf<{ total: number }>(
              await request.get('/api/v1/billing/credits/interactions/available', { headers: account.headers }),
            )
          ).total,
        { timeout: 15_000 },
      )
      .toBe(99);
    await shot(page, `${lang}-08-chatting-again`);
  });

  test(`the Free Plan used up: the buy-more prompt, a checkout cancelled, then a pack paid and chatting again (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(300_000);
    const account = await signUp(request, lang, 'freepack');
    const { spark, testCase } = await sparkWithTest(request, account, 'Pack Spark', lang);
    const available = async () =>
      (
        await dataOf<{ total: number }>(
          await request.get('/api/v1/billing/credits/interactions/available', { headers: account.headers }),
        )
      ).total;
    await useSession(context, account, lang);
    const testPath = `/spark/${spark._id}/test/${testCase._id}`;
    await page.goto(testPath);
    await expect(page.getByTestId('test-loading-overlay')).toHaveCount(0, { timeout: 15_000 });
    const box = page.getByRole('textbox', { name: chat.composer.label });
    await expect(box).toBeEnabled({ timeout: 30_000 });

    // The Free Plan's interactions of the period are used up (set in the database).
    await onTenant(account, 'UPDATE tenants SET usage_interactions = limit_interactions');
    const question = QUESTION[lang];
    await sendInComposer(box, question);

    // — the buy-more-interactions prompt: its own dialog, not the out-of-interactions modal —
    const prompt = page.getByRole('dialog', { name: chat.dialogs.buyMorePrompt.title });
    await expect(prompt).toContainText(chat.dialogs.buyMorePrompt.text);
    await expect(page.getByRole('dialog', { name: billing.outOfInteractions.title })).toHaveCount(0);
    await shot(page, `${lang}-20-buy-more`, true);
    await prompt.getByRole('button', { name: chat.dialogs.buyMore }).click();

    // — on the Free Plan a pack goes through checkout: Cancel charges nothing and comes back to the test —
    const packs = page.getByRole('dialog', { name: billing.credits.title });
    await packs.getByRole('button', { name: fill(billing.credits.buy, { name: thousand }) }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_local_[0-9a-f]+$/);
    const checkout = page.getByTestId('checkout');
    await expect(checkout.getByTestId('checkout-product')).toHaveText(thousand);
    await shot(page, `${lang}-21-checkout-pack`, true);
    await checkout.getByRole('button', { name: billing.checkout.cancel }).click();
    await expect(page).toHaveURL(new RegExp(`${testPath}$`));
    await expect(page.getByTestId('billing-notice')).toHaveText(billing.result.cancelled);
    await expect(box).toBeEnabled({ timeout: 30_000 });
    await shot(page, `${lang}-22-cancelled`, true);
    expect(await available()).toBe(0);

    // — again, paid this time: the pack is credited and the owner is back in the test (issue 34, item 9) —
    await sendInComposer(box, question);
    await page
      .getByRole('dialog', { name: chat.dialogs.buyMorePrompt.title })
      .getByRole('button', { name: chat.dialogs.buyMore })
      .click();
    await page
      .getByRole('dialog', { name: billing.credits.title })
      .getByRole('button', { name: fill(billing.credits.buy, { name: '100 ITx' }) })
      .click();
    await expect(page).toHaveURL(/\/checkout\/cs_local_[0-9a-f]+$/);
    await page
      .getByTestId('checkout')
      .getByRole('button', { name: new RegExp(billing.checkout.pay.split('{{')[0]) })
      .click();
    await expect(page).toHaveURL(new RegExp(`${testPath}$`));
    await expect(page.getByTestId('billing-notice')).toHaveText(fill(billing.result.packPaid, { name: '100 ITx' }));
    expect(await available()).toBe(100);
    await expect(page.getByTestId('test-loading-overlay')).toHaveCount(0, { timeout: 15_000 });
    await shot(page, `${lang}-23-pack-paid`, true);

    // — the next question is answered right there, from the pack —
    await expect(box).toBeEnabled({ timeout: 30_000 });
    const answers = page.locator('.chat-bubble--assistant');
    const before = await answers.count();
    await sendInComposer(box, question);
    await expect.poll(() => answers.count(), { timeout: 30_000 }).toBeGreaterThan(before);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect.poll(available, { timeout: 15_000 }).toBe(99);

    // — /billing: still the Free Plan (a pack is no subscription), nothing to manage; the pack's objective done —
    await page.goto('/billing');
    await expect(page.getByRole('button', { name: billing.manage.changePlan })).toHaveCount(0);
    const panel = await billingObjectives(page, lang);
    await expect(panel.getByTestId('objectives-percent')).toHaveText('50%', { timeout: 15_000 });
  });

  test(`overage on a paid plan: turned on with a cap, a used-up plan keeps answering; turned off, the buy-more prompt (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(180_000);
    const account = await signUp(request, lang, 'overage');
    await buyPlan(request, account, 'price_ruby_month');
    const { spark, testCase } = await sparkWithTest(request, account, 'Overage Spark', lang);
    const overage = () =>
      request
        .get('/api/v1/billing/overage', { headers: account.headers })
        .then((res) =>
          dataOf<{ enabled: boolean; capCents: number; usedInteractions: number; spentCents: number }>(res),
        );
    await useSession(context, account, lang);

    // — /billing: the overage button beside "Change plan", off; its dialog shows Ruby's rate (12 cents) —
    await page.goto('/billing');
    const open = page.getByTestId('overage-open');
    await expect(open).toContainText(billing.overage.button);
    await expect(open).toContainText(billing.overage.statusOff);
    await expect(page.getByRole('button', { name: billing.manage.changePlan })).toBeVisible();
    await shot(page, `${lang}-30-overage-off`, true);
    await open.click();
    const dialog = page.getByRole('dialog', { name: billing.overage.title });
    const rate = lang === 'en' ? '€0.12' : '0,12 €';
    await expect(dialog).toHaveAccessibleDescription(money(fill(billing.overage.lead, { rate })));
    const cap = dialog.getByLabel(fill(billing.overage.cap, { symbol: '€' }));
    await expect(cap).toBeDisabled();
    await dialog.getByRole('switch', { name: money(fill(billing.overage.toggle, { rate })) }).check();

    // A cap the server refuses (below one interaction): its message, in the user's language, and nothing saved.
    await cap.fill(lang === 'en' ? '0.10' : '0,10');
    await dialog.getByRole('button', { name: billing.overage.save }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      lang === 'en'
        ? 'The monthly spending cap must pay for at least one interaction at the overage rate'
        : 'El límite mensual de gasto debe cubrir al menos una interacción a la tarifa adicional',
    );
    await shot(page, `${lang}-31-overage-refused`, true);
    expect((await overage()).enabled).toBe(false);

    await cap.fill(lang === 'en' ? '20.40' : '20,40');
    await expect(dialog).toContainText(fill(billing.overage.capHint_other, { n: '170', count: 170 }));
    await shot(page, `${lang}-32-overage-dialog`, true);
    await dialog.getByRole('button', { name: billing.overage.save }).click();
    await expect(dialog).toHaveCount(0);
    await expect(open).toContainText(
      money(fill(billing.overage.statusOn, { cap: lang === 'en' ? '€20.40' : '20,40 €' })),
    );
    expect(await overage()).toMatchObject({ enabled: true, capCents: 2040 });
    await shot(page, `${lang}-33-overage-on`, true);

    // — the plan's 600 interactions used up (set in the database), no packs: a test chat send is answered, and
    // counted as overage; no out-of-interactions modal, no buy-more prompt —
    await onTenant(account, 'UPDATE tenants SET usage_interactions = limit_interactions');
    const testPath = `/spark/${spark._id}/test/${testCase._id}`;
    const answers = page.locator('.chat-bubble--assistant');
    const ask = () => askInTest(page, lang);
    await page.goto(testPath);
    await expect(answers.first()).toBeVisible({ timeout: 30_000 }); // the greeting
    const greeted = await answers.count();
    await ask();
    await expect.poll(() => answers.count(), { timeout: 30_000 }).toBeGreaterThan(greeted);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect.poll(async () => (await overage()).usedInteractions, { timeout: 15_000 }).toBe(1);
    expect((await overage()).spentCents).toBe(12);
    await shot(page, `${lang}-34-answered-as-overage`, true);

    // — back on /billing the dialog shows this period's overage; turned off —
    await page.goto('/billing');
    await page.getByTestId('overage-open').click();
    const spentLine = money(fill(billing.overage.spent_one, { n: '1', count: 1, spent: rate, date: 'DATE' }))
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace('DATE', '.+');
    await expect
      .poll(async () => money(await dialog.getByTestId('overage-spent').innerText()))
      .toMatch(new RegExp(`^${spentLine}$`));
    await shot(page, `${lang}-34b-overage-spent`, true);
    await dialog.getByRole('switch').uncheck();
    await dialog.getByRole('button', { name: billing.overage.save }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('overage-open')).toContainText(billing.overage.statusOff);
    expect(await overage()).toMatchObject({ enabled: false, capCents: 2040 });

    // — the next send gets the buy-more prompt, and nothing more is counted —
    await page.goto(testPath);
    const modal = page.getByRole('dialog', { name: billing.outOfInteractions.title });
    // Off again, the used-up plan opens the out-of-interactions modal on the page's load: not now.
    await modal.getByRole('button', { name: billing.outOfInteractions.notNow }).click();
    await ask();
    const prompt = page.getByRole('dialog', { name: chat.dialogs.buyMorePrompt.title });
    await expect(prompt).toContainText(chat.dialogs.buyMorePrompt.text);
    await shot(page, `${lang}-35-overage-off-buy-more`, true);
    expect((await overage()).usedInteractions).toBe(1);
  });

  test(`the trial ends: a 402 on a send opens the trial-ended popup, then the plans that cannot be closed (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(150_000);
    const account = await signUp(request, lang, 'trial');
    const { spark, testCase } = await sparkWithTest(request, account, 'Trial Spark', lang);
    await useSession(context, account, lang);
    await page.goto(`/spark/${spark._id}/test/${testCase._id}`);
    await expect(page.getByTestId('test-loading-overlay')).toHaveCount(0, { timeout: 15_000 });
    const box = page.getByRole('textbox', { name: chat.composer.label });
    await expect(box).toBeEnabled({ timeout: 30_000 });

    // The trial's end moves into the past in the database (a test clock, not a sleep).
    await onTenant(account, "UPDATE tenants SET trial_ends_at = now() - interval '1 minute'");
    await sendInComposer(box, QUESTION[lang]);

    const ended = page.getByRole('alertdialog', { name: billing.trialEnded.title });
    await expect(ended).toHaveAccessibleDescription(billing.trialEnded.body);
    await shot(page, `${lang}-10-trial-ended`);
    await page.keyboard.press('Escape');
    // (The dialog's own box is empty: its panel is fixed. Its buttons show whether it is open.)
    await expect(ended.getByRole('button', { name: billing.trialEnded.viewPlans })).toBeVisible();

    // View plans: the plans popup, which neither Escape nor a click outside closes.
    await ended.getByRole('button', { name: billing.trialEnded.viewPlans }).click();
    const plans = page.getByRole('alertdialog', { name: billing.plans.title });
    await expect(plans).toHaveAccessibleDescription(billing.plans.leadRequired);
    await expect(plans.getByTestId('plan-ruby')).toBeVisible();
    await expect(plans.getByRole('button', { name: billing.plans.close })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    await expect(plans.getByTestId('plan-ruby')).toBeVisible();
    await shot(page, `${lang}-11-plans-required`);

    // Reloaded, the profile says it too; logging out goes to /auth.
    await page.goto('/');
    await expect(ended.getByRole('button', { name: billing.trialEnded.logout })).toBeVisible();
    await ended.getByRole('button', { name: billing.trialEnded.logout }).click();
    await expect(page).toHaveURL(/\/auth/);
  });
}
