import { expect, type Locator } from '@playwright/test';

/**
 * Types `text` in a chat's message box (the web app's composer) and sends it with Enter once the chat takes a
 * message. While a message is being sent and its reply has not come, the send button is disabled and Enter does
 * nothing (a reply still being revealed does not hold a message back: the rest of it shows at once); pressing
 * Enter then would leave the text in the box and the test waiting for an answer that was never asked for.
 */
export async function sendInComposer(box: Locator, text: string): Promise<void> {
  await expect(box).toBeEditable({ timeout: 30_000 });
  await box.fill(text);
  const send = box.locator('xpath=ancestor::form[1]').locator('button[type="submit"]');
  await expect(send).toBeEnabled({ timeout: 30_000 });
  await box.press('Enter');
}
