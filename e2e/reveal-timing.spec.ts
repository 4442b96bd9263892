import { expect, test, type Page } from '@playwright/test';

import enChat from '../web/public/locales/en/chat.json';
import { signUp, useSession } from './support/account';

/**
 * The assistant's turns (docs/product.md §4/§9): the n-th message of a fresh reply shows n × 800 ms after the
 * first. This spec keeps the real clock for them. The other specs that sign in through useSession run the browser's
 * clock ahead, so that every message is already "old" and shows at once (e2e/support/account.ts); the second test
 * proves that they do.
 */

/**
 * On /new-spark, answers the name, then the description, and measures when each message of the assistant's reply
 * to the description (its question, then the widget with the choices) entered the page, in ms of the page's clock.
 */
async function turnsOfAReply(page: Page): Promise<number[]> {
  // A message of the assistant or a widget (not the typing dots, nor the person's message). Page code as a string:
  // the tests' TypeScript has no DOM types.
  await page.addInitScript({
    content: `window.__turns = [];
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            if (node instanceof HTMLElement && node.matches('.chat-msg--is-assistant, .chat-msg--is-widget'))
              window.__turns.push(performance.now());
      }).observe(document, { childList: true, subtree: true });`,
  });
  await page.goto('/new-spark');
  const log = page.getByRole('log');
  const box = page.getByRole('textbox', { name: enChat.composer.label });
  const send = page.getByRole('button', { name: /^Send$/ });
  await box.fill('Panadería Lucía');
  await send.click();
  await expect(log.locator('.chat-msg--is-assistant')).toHaveCount(2);
  await expect(send).toBeDisabled();
  await page.evaluate('window.__turns.splice(0)');
  await box.fill('A neighbourhood bakery in Valladolid with sourdough bread.');
  await send.click();
  await expect(log.getByRole('button', { name: 'Answer customer questions' })).toBeVisible();
  await expect(page.locator('.chat-bubble--typing')).toHaveCount(0);
  return page.evaluate<number[]>('window.__turns');
}

test('a fresh reply shows its messages in 800 ms turns (real clock)', async ({ page, request }) => {
  const account = await signUp(request, 'en', 'turns');
  await useSession(page.context(), account, 'en', { realClock: true });
  const turns = await turnsOfAReply(page);
  expect(turns).toHaveLength(2);
  // 800 ms counted from the message's creation: a little less may be left once the first has shown.
  expect(turns[1] - turns[0]).toBeGreaterThanOrEqual(600);
});

test('signed in through useSession, the same reply shows at once (the clock runs ahead)', async ({ page, request }) => {
  const account = await signUp(request, 'en', 'turns');
  await useSession(page.context(), account, 'en');
  const turns = await turnsOfAReply(page);
  expect(turns).toHaveLength(2);
  expect(turns[1] - turns[0]).toBeLessThan(400);
});
