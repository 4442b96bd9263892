import { expect, test, type Page } from '@playwright/test';

import enChat from '../web/public/locales/en/chat.json';
import { signUp, useSession } from './support/account';

/**
 * The assistant's turns (docs/product.md §4/§9): the n-th message of a fresh reply shows n × 800 ms after the
 * first. This spec keeps the real clock for them. The other specs that sign in through useSession run the browser's
 * clock ahead, so that every message is already "old" and shows at once (e2e/support/account.ts); the second test
 * proves that they do.
 */

interface Turns {
  /** When each message of the reply entered the page, in ms of the page's clock. */
  shown: number[];
  /** When the stream delivered the reply's first message (the chat reads each event with JSON.parse). */
  arrived: number;
}

/**
 * On /new-spark, answers the name, then the description, and measures when each message of the assistant's reply
 * to the description (its question, then the widget with the choices) arrived and entered the page.
 */
async function turnsOfAReply(page: Page): Promise<Turns> {
  // A message of the assistant or a widget (not the typing dots, nor the person's message). Page code as a string:
  // the tests' TypeScript has no DOM types.
  await page.addInitScript({
    content: `window.__turns = [];
      window.__arrivals = [];
      const parse = JSON.parse;
      JSON.parse = function (...args) {
        const value = parse.apply(this, args);
        if (value && (value.type === 'message' || value.type === 'done')) window.__arrivals.push(performance.now());
        return value;
      };
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
  await page.evaluate('window.__turns.splice(0); window.__arrivals.splice(0)');
  await box.fill('A neighbourhood bakery in Valladolid with sourdough bread.');
  await send.click();
  await expect(log.getByRole('button', { name: 'Answer customer questions' })).toBeVisible();
  await expect(page.locator('.chat-bubble--typing')).toHaveCount(0);
  const shown = await page.evaluate<number[]>('window.__turns');
  const arrivals = await page.evaluate<number[]>('window.__arrivals');
  expect(arrivals.length).toBeGreaterThan(0);
  return { shown, arrived: arrivals[0] };
}

test('a fresh reply shows its messages in 800 ms turns (real clock)', async ({ page, request }) => {
  const account = await signUp(request, 'en', 'turns');
  await useSession(page.context(), account, 'en', { realClock: true });
  const { shown, arrived } = await turnsOfAReply(page);
  expect(shown).toHaveLength(2);
  expect(shown[0]).toBeLessThan(shown[1]);
  // 800 ms counted from the reply's arrival, not from when the first message was drawn: on a busy machine drawing
  // the first can take a few hundred ms, and the second must not wait for it (Date.now() rounds to the ms).
  expect(shown[1] - arrived).toBeGreaterThanOrEqual(799);
});

test('signed in through useSession, the same reply shows at once (the clock runs ahead)', async ({ page, request }) => {
  const account = await signUp(request, 'en', 'turns');
  await useSession(page.context(), account, 'en');
  const { shown } = await turnsOfAReply(page);
  expect(shown).toHaveLength(2);
  expect(shown[1] - shown[0]).toBeLessThan(400);
});
