import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * What axe-core's WCAG 2.1 A and AA rules find serious or critical on the page as it is now, once every finite
 * animation has finished (a spinner's endless one is part of the screen); lesser findings are logged. `where` names
 * the screen in the lines.
 */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  // Page code as a string (the tests' TypeScript has no DOM types), evaluated by the browser's protocol, which the
  // app's Content-Security-Policy (no 'unsafe-eval') leaves alone, unlike waitForFunction's polling.
  const settled = `document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity)`;
  await expect.poll(() => page.evaluate<boolean>(settled), { timeout: 10_000 }).toBe(true);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const found: string[] = [];
  for (const violation of violations) {
    const nodes = violation.nodes.map((node) => node.target.join(' ')).join(', ');
    const line = `${where}: ${violation.impact} ${violation.id} (${violation.help}) at ${nodes}`;
    if (violation.impact === 'serious' || violation.impact === 'critical') found.push(line);
    else console.log(line);
  }
  return found;
}
