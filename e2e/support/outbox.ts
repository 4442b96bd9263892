import { expect, type APIRequestContext } from '@playwright/test';

interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

/**
 * Waits for a mail to `to` in the dev outbox (GET /api/v1/dev/outbox, newest first) that `match` accepts,
 * and answers it. Mail goes out through the worker's queue, hence the polling.
 */
async function waitForMail(
  request: APIRequestContext,
  to: string,
  match: (message: OutboxMessage) => boolean,
  timeout = 20_000,
): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(to)}`);
        if (!response.ok()) return `outbox answered ${response.status()}`;
        const messages = ((await response.json()) as { data: OutboxMessage[] }).data;
        found = messages.find(match);
        return found ? 'found' : `${messages.length} other message(s)`;
      },
      { timeout, message: `a mail to ${to}` },
    )
    .toBe('found');
  return found!;
}

/** The 6-digit code of the newest verification mail ("Your Sparks code: 123456" / "Tu código de Sparks: …"). */
export async function verificationCode(request: APIRequestContext, to: string): Promise<string> {
  const mail = await waitForMail(request, to, (message) => /\b\d{6}\b/.test(message.subject));
  return /\b(\d{6})\b/.exec(mail.subject)![1];
}

/** The 6-digit code of the newest login-code mail ("Your Sparks login code: …" / "Tu código para entrar en Sparks: …"). */
export async function loginCode(request: APIRequestContext, to: string): Promise<string> {
  const mail = await waitForMail(request, to, (message) => /login code|para entrar/.test(message.subject));
  return /\b(\d{6})\b/.exec(mail.subject)![1];
}

/** Path and query of the reset link of the newest reset mail, to open on the test's own base URL. */
export async function resetLinkPath(request: APIRequestContext, to: string): Promise<string> {
  const mail = await waitForMail(request, to, (message) => message.text.includes('/reset-password?token='));
  const link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec(mail.text)![0];
  const url = new URL(link);
  return url.pathname + url.search;
}
