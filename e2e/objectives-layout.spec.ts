import { expect, test, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';

import enChat from '../web/public/locales/en/chat.json';
import enObjectives from '../web/public/locales/en/objectives.json';
import enSparks from '../web/public/locales/en/sparks.json';
import { signUp, useSession } from './support/account';
import { shotInto } from './support/shots';

/**
 * Issue 18 item 9: the objectives panel sits beside the chat on desktop widths, so the user's own messages,
 * the message box and the send button stay visible and usable while it is open. On a phone it covers the
 * chat (there is no room beside it) and closes with its own button.
 */

/** Set OBJECTIVES_SHOTS_DIR (e.g. /tmp/shots-objectives) to look at the screens. */
const shotsDir = process.env.OBJECTIVES_SHOTS_DIR;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found, 'the element has a box').not.toBeNull();
  return found!;
}

/**
 * The element's box once it has stopped changing: two reads 100 ms apart agree. A bubble measured while the
 * chat re-renders it (a reply landing, the panel sliding in, the log scrolling to its end) made this test flaky.
 */
async function stableBox(locator: Locator): Promise<Box> {
  let last = '';
  await expect
    .poll(
      async () => {
        const now = JSON.stringify(await box(locator));
        const same = now === last;
        last = now;
        return same;
      },
      { intervals: [100], timeout: 10_000, message: 'the element stops moving' },
    )
    .toBe(true);
  return JSON.parse(last) as Box;
}

/**
 * The builder has finished answering: no "writing…" indicator, nothing streaming, and the last message is its
 * own. (The indicator is an assistant message too, so "the last message is not mine" alone passed while the
 * reply was still coming, and the reply then replaced the bubble being measured.)
 */
async function replyDone(log: Locator) {
  await expect(log.locator('.chat-bubble--typing')).toHaveCount(0, { timeout: 30_000 });
  await expect(log).toHaveAttribute('aria-busy', 'false');
  await expect(log.locator('.chat-msg').last()).not.toHaveClass(/chat-msg--human/);
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The element is inside the viewport and is what the browser hits at its centre (nothing drawn over it). */
async function expectUncovered(page: Page, locator: Locator, what: string, measured?: Box) {
  const { x, y, width, height } = measured ?? (await stableBox(locator));
  const viewport = page.viewportSize()!;
  expect(x, `${what} starts inside the window`).toBeGreaterThanOrEqual(0);
  expect(x + width, `${what} ends inside the window`).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(y + height, `${what} is above the window's bottom`).toBeLessThanOrEqual(viewport.height + 0.5);
  const hit = await locator.evaluate(
    (element, [cx, cy]) => {
      const top = element.ownerDocument.elementFromPoint(cx, cy);
      return top !== null && (element === top || element.contains(top));
    },
    [x + width / 2, y + height / 2] as const,
  );
  expect(hit, `${what} is not covered by anything`).toBe(true);
}

/** Below 1140 px the floating buttons show: they leave the groups' chevrons uncovered (issue 18 item 11). */
async function expectChevronsClear(page: Page, panel: Locator, width: number) {
  const floating = page.locator('.floating-buttons');
  if ((await floating.count()) === 0) return;
  const buttons = await box(floating);
  const chevrons = panel.locator('.objective__chevron');
  expect(await chevrons.count()).toBeGreaterThan(0);
  for (const chevron of await chevrons.all()) {
    expect(overlaps(await box(chevron), buttons), `a chevron is under the floating buttons at ${width} px`).toBe(false);
  }
}

/** Long enough that a phone's header cannot show it whole (issue 18: the header took two rows). */
const LONG_NAME = 'Corner Bakery and Sourdough Workshop of the Old Harbour';

test.use({ locale: 'en-US' });

/** A new English user, signed in in the browser, with a Spark named {@link LONG_NAME}. */
async function signedInWithLongName(request: APIRequestContext, context: BrowserContext, tag: string) {
  const account = await signUp(request, 'en', tag);
  const created = await request.post('/api/v1/sparks', { data: { name: LONG_NAME }, headers: account.headers });
  expect(created.status(), await created.text()).toBe(201);
  const sparkId = ((await created.json()) as { data: { _id: string } }).data._id;
  await useSession(context, account, 'en');
  return { account, sparkId };
}

test('the objectives panel sits beside the chat on desktop widths (issue 18 item 9)', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(180_000);
  const { sparkId } = await signedInWithLongName(request, context, 'objectives-layout');

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/spark/${sparkId}`);
  const log = page.getByRole('log');
  const composer = page.getByRole('textbox', { name: enChat.composer.label });
  // The first page of a run loads its chunks and opens the chat: more than the default 10 s on a busy machine.
  await expect(composer).toBeEnabled({ timeout: 30_000 });
  const own = 'We bake sourdough bread, croissants and birthday cakes every morning from 7 until 2.';
  await composer.fill(own);
  const sendButton = page.getByRole('button', { name: enChat.composer.send });
  await expect(sendButton).toBeEnabled({ timeout: 30_000 });
  await sendButton.click();
  const ownBubble = log.locator('.chat-msg--human').filter({ hasText: own }).last();
  await expect(ownBubble).toBeVisible();
  // Wait until the builder has answered, so the message box is usable again and nothing re-renders.
  await replyDone(log);
  await composer.fill('and on Sundays');

  const button = page.getByRole('button', { name: enObjectives.label, exact: true });
  await button.click();
  const panel = page.getByRole('complementary', { name: /Corner Bakery/ });
  await expect(panel).toBeVisible();

  for (const width of [1440, 1280, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    // Let the panel finish sliding in.
    await expect(panel).toBeVisible();
    const panelBox = await stableBox(panel);
    const send = page.getByRole('button', { name: enChat.composer.send });
    await log.locator('.chat-msg').last().scrollIntoViewIfNeeded();
    await shotInto(shotsDir, page, `objectives-open-${width}`, 0);
    for (const [what, element] of [
      ['the message box', composer],
      ['the send button', send],
      ['the last message', log.locator('.chat-bubble').last()],
      ['the last choice', log.locator('.chat-msg').last()],
      ['the own message', ownBubble.locator('.chat-bubble').first()],
    ] as const) {
      await element.scrollIntoViewIfNeeded();
      const measured = await stableBox(element);
      expect(overlaps(measured, panelBox), `${what} is not under the panel at ${width} px`).toBe(false);
      await expectUncovered(page, element, `${what} at ${width} px`, measured);
    }
    // The chat is still usable with the panel open: the send button takes a click.
    await expect(send).toBeEnabled();
    await expectChevronsClear(page, panel, width);
  }

  // The panel leaves the chat its whole width again when closed.
  await page.setViewportSize({ width: 1440, height: 900 });
  const chatOpen = await box(log);
  await panel.getByRole('button', { name: enObjectives.close }).click();
  await expect(panel).toBeHidden();
  await expect.poll(async () => (await box(log)).width).toBeGreaterThan(chatOpen.width + 200);

  // A phone has no room beside the chat: the panel covers it and closes with its own button.
  await page.setViewportSize({ width: 390, height: 844 });
  // The Spark's name has the header's first row to itself, on at most two lines (cut to "Tie…" beside the buttons
  // before, docs/decisions.md 2026-11-28); the tag and the actions are the row below, whole and uncovered.
  const title = page.getByTestId('spark-title');
  const actions = page.locator('.chat-page__actions');
  const [titleBox, actionsBox] = [await stableBox(title), await stableBox(actions)];
  expect(titleBox.y + titleBox.height).toBeLessThanOrEqual(actionsBox.y + 1);
  expect(titleBox.width).toBeGreaterThan(250);
  expect(await title.textContent()).toBe(LONG_NAME);
  expect(titleBox.height).toBeLessThanOrEqual(48); // two lines of 18 px × 1.3 (chat-page.css)
  expect((await box(page.locator('.chat-page__header'))).height).toBeLessThanOrEqual(120);
  for (const action of await actions.getByRole('button').all()) {
    await expectUncovered(page, action, `the header's ${(await action.getAttribute('aria-label')) ?? 'button'}`);
  }
  await shotInto(shotsDir, page, 'header-390', 0);
  // Renaming there keeps the rows: the name's box and its save button on the first, the actions below.
  await page.getByRole('button', { name: enSparks.title.edit }).click();
  const nameInput = page.getByRole('textbox', { name: enSparks.title.input });
  await expect(nameInput).toBeFocused();
  const saveBox = await stableBox(page.getByRole('button', { name: enSparks.title.save }));
  expect(saveBox.y + saveBox.height).toBeLessThanOrEqual((await box(actions)).y + 1);
  expect((await box(nameInput)).x + (await box(nameInput)).width).toBeLessThanOrEqual(saveBox.x);
  await expectUncovered(page, page.getByRole('button', { name: enSparks.title.save }), 'the save button');
  await shotInto(shotsDir, page, 'header-390-renaming', 0);
  await nameInput.press('Escape');
  await expect(title).toBeVisible();
  await button.click();
  await expect(panel).toBeVisible();
  const phonePanel = await stableBox(panel);
  await shotInto(shotsDir, page, 'objectives-open-390', 0);
  expect(phonePanel.width).toBeGreaterThan(380);
  await expectChevronsClear(page, panel, 390);
  await panel.getByRole('button', { name: enObjectives.close }).click();
  await expect(panel).toBeHidden();
  await expectUncovered(page, composer, 'the message box on a phone');
});

test('the test page shows a long Spark name in full where the header has room for it', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(120_000);
  const { account, sparkId } = await signedInWithLongName(request, context, 'test-heading');
  const made = await request.post(`/api/v1/sparks/${sparkId}/tests`, {
    data: { name: 'Prices' },
    headers: account.headers,
  });
  expect(made.status(), await made.text()).toBe(201);
  const testId = ((await made.json()) as { data: { _id: string } }).data._id;

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/spark/${sparkId}/test/${testId}`);
  const heading = page.getByRole('heading', { level: 1, name: LONG_NAME });
  await expect(heading).toBeVisible({ timeout: 30_000 });
  await shotInto(shotsDir, page, 'test-page-long-name-1440', 0);
  // Not cut: the whole name is drawn (it was cut at 520 px with half the header empty).
  const cut = await heading.evaluate((element) => element.scrollWidth > element.clientWidth);
  expect(cut, 'the name is shown whole').toBe(false);

  // Narrower, it is cut where the tag begins, and the tag and the buttons stay whole beside it.
  await page.setViewportSize({ width: 800, height: 900 });
  const tag = page.getByTestId('spark-tag');
  await expect
    .poll(async () => (await box(heading)).x + (await box(heading)).width)
    .toBeLessThanOrEqual((await box(tag)).x);
  await expectUncovered(page, page.getByRole('button', { name: /Finish test/ }), 'the finish button');
  await shotInto(shotsDir, page, 'test-page-long-name-800', 0);
});
