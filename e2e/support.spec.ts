import { expect, test } from '@playwright/test';

import enFlows from '../libs/core/src/locales/en/flows.json';
import esFlows from '../libs/core/src/locales/es/flows.json';
import enLayout from '../web/public/locales/en/layout.json';
import esLayout from '../web/public/locales/es/layout.json';
import { signUp, useSession } from './support/account';
import { fill } from './support/catalogues';
import { shotInto } from './support/shots';

/**
 * Issue 18, "also seen": a user who deactivates their own account in /settings was told to "contact support"
 * with no contact. The inactive-account dialog now names the server's SUPPORT_EMAIL (playwright.config.ts sets
 * help@sparks.example) as a mailto link, in the user's language. Screenshots: SUPPORT_SHOTS_DIR.
 */

const SHOTS = process.env.SUPPORT_SHOTS_DIR;
const SUPPORT = 'help@sparks.example';
const texts = { en: { layout: enLayout, flows: enFlows }, es: { layout: esLayout, flows: esFlows } } as const;
const deactivate = { en: 'Deactivate my account', es: 'Desactivar mi cuenta' } as const;

test.use({ viewport: { width: 1440, height: 900 } });

for (const lang of ['en', 'es'] as const) {
  const { layout, flows } = texts[lang];

  test(`self-deactivation: the dialog says whom to write to, with a mailto link (${lang})`, async ({
    page,
    context,
    request,
  }) => {
    const account = await signUp(request, lang, 'support');
    await useSession(context, account, lang);
    await page.goto('/settings');
    const log = page.getByRole('log');
    await log.getByRole('button', { name: deactivate[lang] }).click();
    await log.getByRole('button', { name: flows.yes, exact: true }).click();

    const dialog = page.getByRole('alertdialog', { name: layout.inactive.title });
    await expect(dialog.getByRole('button', { name: layout.inactive.logout })).toBeVisible({ timeout: 30_000 });
    const [before] = layout.inactive.contactEmail.split('{{email}}');
    await expect(dialog.getByText(before.trim(), { exact: false })).toHaveText(
      fill(layout.inactive.contactEmail, { email: SUPPORT }),
    );
    await expect(dialog.getByRole('link', { name: SUPPORT })).toHaveAttribute('href', `mailto:${SUPPORT}`);
    await expect(dialog).not.toContainText(lang === 'en' ? 'contact support' : 'contacta con soporte');
    await shotInto(SHOTS, page, `support-contact-${lang}`, 400);
  });
}
