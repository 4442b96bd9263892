import { expect, test, type Page } from '@playwright/test';

import enLayout from '../web/public/locales/en/layout.json';
import enOnboarding from '../web/public/locales/en/onboarding.json';
import enCommon from '../web/public/locales/en/common.json';
import esLayout from '../web/public/locales/es/layout.json';
import esOnboarding from '../web/public/locales/es/onboarding.json';
import esCommon from '../web/public/locales/es/common.json';
import { signUp, useSession } from './support/account';
import { fill } from './support/catalogues';
import { shotInto } from './support/shots';

/**
 * The onboarding tour and the mobile layout (issue 8) against the real api + worker, in English and Spanish, on
 * a 1440×900 desktop and a 390×844 phone: /onBoarding, the whole tour (5 stops on the desktop, 8 on the phone)
 * opening and closing the Menu and Profile dropdowns (and the drawer's tutorial panels on the phone), the demo
 * objectives panel at 60%, the end on /new-spark, skipping (ends on /), going back a step, a failing stop (ends
 * on /), the floating main-chat and new-Spark buttons and `mainChat=true`.
 */

const texts = {
  en: { onboarding: enOnboarding, layout: enLayout, common: enCommon },
  es: { onboarding: esOnboarding, layout: esLayout, common: esCommon },
} as const;

const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/** Screenshots for looking at the screens: set ONBOARDING_SHOTS_DIR (e.g. /tmp/shots-onboarding) to take them. */
const shotsDir = process.env.ONBOARDING_SHOTS_DIR;

// The highlight moves in 400 ms; the drawer and the panels slide in about as long.
const shot = (page: Page, name: string) => shotInto(shotsDir, page, name, 600);

test.use({ locale: 'en-US' });

for (const lang of ['en', 'es'] as const) {
  const { onboarding, layout, common } = texts[lang];
  for (const device of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) {
    const phone = device === 'phone';
    const stops = phone
      ? (['drawer', 'menu', 'profile', 'sparks', 'chat', 'mainChatButton', 'newSparkButton', 'objectives'] as const)
      : (['menu', 'profile', 'sparks', 'chat', 'objectives'] as const);

    test(`onboarding tour and ${device} layout (${lang})`, async ({ page, request, context }) => {
      test.setTimeout(180_000);
      await page.setViewportSize(VIEWPORTS[device]);
      const account = await signUp(request, lang, 'tour');
      await useSession(context, account, lang);
      const tag = `${lang}-${device}`;

      // — /onBoarding: the welcome card —
      await page.goto('/onBoarding');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        // The greeting uses the part of the e-mail before the "@" when there is no first name (issue 18 item 13).
        fill(onboarding.intro.title, { name: account.email.split('@')[0] }),
        { timeout: 15_000 },
      );
      await shot(page, `${tag}-01-intro`);
      await page.getByRole('button', { name: onboarding.intro.start }).click();
      await expect(page).toHaveURL(/\/$/);

      const popover = page.locator('.driver-popover');
      const title = popover.locator('.driver-popover-title');
      const progress = popover.locator('.driver-popover-progress-text');
      const next = popover.getByRole('button', { name: onboarding.buttons.next, exact: true });
      const menuButton = page.getByRole('button', { name: layout.menu.button, exact: true });
      const mainMenu = page
        .getByRole('menu')
        .filter({ has: page.getByRole('menuitem', { name: common.nav.settings }) });
      const profileMenu = page
        .getByRole('menu')
        .filter({ has: page.getByRole('menuitem', { name: layout.profile.logout }) });
      const drawer = page.getByRole('complementary', { name: layout.sidebar.label });
      const mainChatButton = page.getByRole('link', { name: layout.floating.mainChat });
      const newSparkButton = page.getByRole('link', { name: layout.floating.newSpark });

      async function atStop(index: number, shotName: string) {
        const stop = stops[index];
        await expect(title).toHaveText(onboarding.steps[stop].title, { timeout: 10_000 });
        await expect(progress).toHaveText(fill(onboarding.progress, { current: index + 1, total: stops.length }));
        await expect(popover.locator('.driver-popover-description')).toHaveText(onboarding.steps[stop].text);
        if (stop === 'chat') {
          // The attach control is a paperclip, and the tour says so (issue 18: it spoke of a "+" button).
          expect(onboarding.steps.chat.text).not.toContain('+');
          expect(onboarding.steps.chat.text).toMatch(lang === 'en' ? /paperclip/ : /clip/);
        }
        // The dropdown of the stop is open, the other one is closed.
        if (stop === 'menu') {
          await expect(mainMenu).toBeVisible();
          await expect(profileMenu).toHaveCount(0);
        } else if (stop === 'profile') {
          await expect(profileMenu).toBeVisible();
          await expect(mainMenu).toHaveCount(0);
        } else {
          await expect(page.getByRole('menu')).toHaveCount(0);
        }
        if (phone) {
          // The mobile tutorial panels: the drawer is open for the menu, profile and Sparks stops only.
          if (stop === 'menu' || stop === 'profile' || stop === 'sparks') await expect(drawer).toBeInViewport();
          else await expect(drawer).not.toBeInViewport();
          if (stop === 'mainChatButton') await expect(mainChatButton).toBeVisible();
          if (stop === 'newSparkButton') await expect(newSparkButton).toBeVisible();
        }
        if (stop === 'objectives') {
          const demo = page.locator('[data-tour="objectives-demo"]');
          await expect(demo).toBeVisible();
          await expect(demo.getByTestId('objectives-percent')).toHaveText('60%');
          await expect(demo.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '60');
          // The groups add up to the ring: 6 of 10 steps (issue 18: they said 7 of 10 under a 60% ring).
          const counts = (await demo.locator('.objective__count').allTextContents()).map((text) =>
            (text.match(/\d+/g) ?? []).map(Number),
          );
          expect(counts).toHaveLength(5);
          const [done, total] = counts.reduce(([d, n], [x, y]) => [d + x, n + y], [0, 0]);
          expect(Math.round((done / total) * 100)).toBe(60);
        }
        await shot(page, `${tag}-${shotName}`);
      }

      // — the whole tour, with one step back on the way —
      await expect(popover).toBeVisible({ timeout: 20_000 });
      await expect(page).not.toHaveURL(/activateTutorial/);
      for (let index = 0; index < stops.length; index += 1) {
        await atStop(index, `02-stop-${index + 1}-${stops[index]}`);
        if (index === 2) {
          await popover.getByRole('button', { name: onboarding.buttons.back }).click();
          await atStop(1, `02-stop-2-again`);
          await next.click();
          await atStop(2, `02-stop-3-again`);
        }
        if (index < stops.length - 1) await next.click();
      }
      await expect(popover.getByRole('button', { name: onboarding.buttons.goToChat })).toBeVisible();
      await popover.getByRole('button', { name: onboarding.buttons.createSpark }).click();
      await expect(page).toHaveURL(/\/new-spark$/);
      await expect(popover).toHaveCount(0);
      await expect(page.locator('[data-tour="objectives-demo"]')).toHaveCount(0);
      await expect(page.getByRole('menu')).toHaveCount(0);
      await shot(page, `${tag}-03-after-tour`);

      // — skipping: from the second stop, the skip button ends on / with everything closed —
      await page.goto('/settings?activateTutorial=true');
      await expect(title).toHaveText(onboarding.steps[stops[0]].title, { timeout: 20_000 });
      await next.click();
      await expect(title).toHaveText(onboarding.steps[stops[1]].title);
      await popover.getByRole('button', { name: onboarding.buttons.skip }).first().click();
      await expect(page).toHaveURL(/\/$/);
      await expect(popover).toHaveCount(0);
      await expect(page.getByRole('menu')).toHaveCount(0);
      if (phone) {
        await expect(drawer).not.toBeInViewport();
        // The tour highlighted the drawer button's wrapper, so the button keeps its own state.
        await expect(page.getByRole('button', { name: layout.sidebar.open })).toHaveAttribute('aria-expanded', 'false');
      }

      // — Escape skips too —
      await page.goto('/?activateTutorial=true');
      await expect(title).toHaveText(onboarding.steps[stops[0]].title, { timeout: 20_000 });
      await page.keyboard.press('Escape');
      await expect(popover).toHaveCount(0);
      await expect(page).toHaveURL(/\/$/);

      // — a stop that cannot be shown (no chat on a page that does not exist) ends the tour on / —
      await page.goto('/no-such-page?activateTutorial=true');
      await expect(title).toHaveText(onboarding.steps[stops[0]].title, { timeout: 20_000 });
      const chatStop = stops.indexOf('chat');
      for (let index = 0; index < chatStop; index += 1) {
        await expect(progress).toHaveText(fill(onboarding.progress, { current: index + 1, total: stops.length }));
        await next.click();
      }
      await expect(page).toHaveURL(/\/$/, { timeout: 15_000 });
      await expect(popover).toHaveCount(0);

      if (!phone) {
        // Desktop: no floating buttons.
        await expect(mainChatButton).toHaveCount(0);
        await expect(newSparkButton).toHaveCount(0);
        await expect(menuButton).toBeVisible();
        return;
      }

      // — phone: the floating buttons and mainChat=true —
      await expect(mainChatButton).toHaveCount(0); // already on the main chat
      await expect(newSparkButton).toBeVisible();
      await shot(page, `${tag}-04-home-buttons`);
      await newSparkButton.click();
      await expect(page).toHaveURL(/\/new-spark$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(common.pages.newSpark.title);
      await expect(newSparkButton).toHaveCount(0);
      await expect(mainChatButton).toBeVisible();
      await shot(page, `${tag}-05-new-spark-buttons`);
      await mainChatButton.click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(common.pages.chatHome.title);

      // mainChat=true from another page, with the drawer open: the main chat, drawer closed.
      await page.goto('/settings');
      await page.getByRole('button', { name: layout.sidebar.open }).click();
      await expect(drawer).toBeInViewport();
      await page.evaluate(
        "window.history.pushState({}, '', '/settings?mainChat=true'); window.dispatchEvent(new PopStateEvent('popstate'))",
      );
      await expect(page).toHaveURL(/\/$/);
      await expect(drawer).not.toBeInViewport();
    });
  }
}
