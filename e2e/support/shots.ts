import fs from 'node:fs';
import path from 'node:path';

import type { Page } from '@playwright/test';

/** Screenshots for looking at the screens: set AUTH_SHOTS_DIR (e.g. /tmp/shots-auth) to take them. */
const dir = process.env.AUTH_SHOTS_DIR;

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A full-page screenshot at 1440×900 and at 390×844, named `<name>-desktop.png` and `<name>-mobile.png`. */
export async function snap(page: Page, name: string): Promise<void> {
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  // Page chunks load lazily: wait until no "Loading…" placeholder is left.
  await page.waitForLoadState('networkidle');
  await page.locator('.page-loading, .boot-screen').first().waitFor({ state: 'detached' });
  const original = page.viewportSize() ?? DESKTOP;
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: path.join(dir, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: path.join(dir, `${name}-mobile.png`), fullPage: true });
  await page.setViewportSize(original);
}

/**
 * One screenshot of the viewport as it is, into `dir` (the spec's *_SHOTS_DIR; none, none taken) as
 * `<name>.png`, after `settleMs` for highlights, drawers and dialogs to finish moving.
 */
export async function shotInto(dir: string | undefined, page: Page, name: string, settleMs: number): Promise<void> {
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(settleMs);
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}
