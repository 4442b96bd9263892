import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import { WIDGET_ICON_PATHS } from '../libs/contracts/src/icons';
import enFlows from '../libs/core/src/locales/en/flows.json';
import esFlows from '../libs/core/src/locales/es/flows.json';
import enDeploy from '../web/public/locales/en/deploy.json';
import esDeploy from '../web/public/locales/es/deploy.json';
import { TEXTS } from '../web/src/widget/texts';
import { useSession } from './support/account';
import { fill } from './support/catalogues';
import { shotInto } from './support/shots';
import { dataOf, onTenant, sparkWithPdf, themeSpark } from './support/sparks';

/**
 * The website widget end to end (issue 16), in English and in Spanish: a Spark with a PDF is
 * published through the deploy page, a plain HTML page on a second local origin holding the snippet
 * shows the launcher, a question gets a streamed answer citing the PDF; the same page on a third,
 * unlisted origin gets nothing. WIDGET_SHOTS_DIR=/tmp/shots-widget keeps screenshots.
 */

const SHOTS = process.env.WIDGET_SHOTS_DIR;

const words = {
  en: {
    name: 'Northwind Bikes',
    greeting: 'Hi! Ask me about rentals.',
    pdf: 'Northwind handbook.pdf',
    text: 'Rentals cost 25 dollars per day, helmet and lock included. Electric bikes cost 45 dollars per day.',
    question: 'How much is an electric bike per day?',
    answer: /45/,
    open: /Open the chat with Northwind Bikes/,
    newConversation: 'New conversation',
    placeholder: 'Type your question…',
    close: 'Close the chat',
    theme: { palette: { name: 'ocean', primary: '#0b6bcb', secondary: '#e3f1ff' }, icon: 'store' },
    colours: { background: 'rgb(11, 107, 203)', icon: 'rgb(227, 241, 255)' },
  },
  es: {
    name: 'Panadería Sol',
    greeting: '¡Hola! Pregúntame por el horario.',
    pdf: 'Horario Panadería Sol.pdf',
    text: 'La Panadería Sol abre los domingos hasta las 14:00. De lunes a sábado abrimos de 8:00 a 20:30.',
    question: '¿Hasta qué hora abrís los domingos?',
    answer: /14:00/,
    open: /Abrir el chat con Panadería Sol/,
    newConversation: 'Nueva conversación',
    placeholder: 'Escribe tu pregunta…',
    close: 'Cerrar el chat',
    theme: { palette: { name: 'rose', primary: '#c2185b', secondary: '#fce4ef' }, icon: 'heart' },
    colours: { background: 'rgb(194, 24, 91)', icon: 'rgb(252, 228, 239)' },
  },
} as const;

const catalogues = { en: { flows: enFlows, deploy: enDeploy }, es: { flows: esFlows, deploy: esDeploy } } as const;

/** The deploy assistant's message on the first sighting, as the chat shows it (the name in bold, the address as is). */
const firstSeenText = (lang: 'en' | 'es', name: string, origin: string) =>
  catalogues[lang].flows.deployFirstSeen.replace('**{name}**', name).replace('{origin}', origin);

/** A Spark in `lang` with its PDF read, on an account whose plan allows one deployment. */
function sparkWithPdfIn(request: APIRequestContext, lang: 'en' | 'es') {
  const w = words[lang];
  return sparkWithPdf(request, {
    lang,
    tag: 'widget',
    name: w.name,
    greeting: w.greeting,
    pdf: w.pdf,
    title: w.name,
    text: w.text,
  });
}

/** A plain HTML page (no framework, its own CSS) that holds the snippet, on a port of its own. */
async function hostPage(): Promise<{ origin: string; show: (snippet: string) => void; close: () => Promise<void> }> {
  let snippet = '';
  const html = () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A shop</title>
<style>button{background:red!important;font-size:40px!important} *{font-family:serif}</style></head>
<body><h1>A small shop</h1><p>Our own page, with our own styles.</p>${snippet}</body></html>`;
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    show: (value) => (snippet = value),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function publishThroughDeployPage(page: Page, lang: 'en' | 'es', sparkName: string, site: string) {
  await page.goto(`/deploy?q=${encodeURIComponent(sparkName)}`);
  const panel = page.getByTestId('deploy-panel');
  // The first load of /deploy on a busy machine (several suites at once) can take a while.
  await expect(panel.getByRole('combobox')).toHaveValue(/.+/, { timeout: 90_000 });
  await panel.getByTestId('deploy-origin-input').fill(site);
  await panel.getByTestId('deploy-origin-add').click();
  await expect(panel.getByTestId('deploy-origins')).toContainText(site);
  await panel.getByTestId('deploy-publish').click();
  const snippet = panel.getByTestId('deploy-snippet');
  await expect(snippet).toContainText('data-token="dt_');
  await shotInto(SHOTS, page, `deploy-published-${lang}`, 300);
  return (await snippet.textContent())!.trim();
}

for (const lang of ['en', 'es'] as const) {
  test(`a Spark published through /deploy answers on an allowed site, streamed and cited, and nowhere else (${lang})`, async ({
    page,
    request,
    context,
    browser,
  }) => {
    test.setTimeout(240_000);
    const w = words[lang];
    const { account, sparkId } = await sparkWithPdfIn(request, lang);
    // The look chosen in the builder: the launcher wears it.
    await themeSpark(sparkId, w.theme);
    await useSession(context, account, lang);

    const site = await hostPage();
    const unlisted = await hostPage();
    try {
      const snippet = await publishThroughDeployPage(page, lang, w.name, site.origin);
      // The deploy page stays open (never reloaded: the mark survives) while the widget is first seen.
      await page.evaluate(() => Object.assign(globalThis, { stillOpen: true }));
      site.show(snippet);
      unlisted.show(snippet);
      // The allowed site: launcher in the Spark's colour, isolated from the page's CSS.
      // A context of its own (axe needs one): the visitor's browser, in their language.
      const visitorContext = await browser.newContext({ locale: lang === 'es' ? 'es-ES' : 'en-US' });
      const visitor = await visitorContext.newPage();
      const siteUrl = site.origin;
      await visitor.goto(siteUrl);
      const launcher = visitor.getByRole('button', { name: w.open });
      await expect(launcher).toBeVisible();
      // The Spark's own icon (not a generic bubble), in its palette, whatever the page's CSS says.
      await expect(launcher).toHaveAttribute('data-icon', w.theme.icon);
      await expect(launcher).toHaveCSS('background-color', w.colours.background);
      await expect(launcher).toHaveCSS('color', w.colours.icon);
      const paths = await launcher.locator('svg path').evaluateAll((ps) => ps.map((p) => p.getAttribute('d')));
      expect(paths).toEqual([...WIDGET_ICON_PATHS[w.theme.icon]]);
      await shotInto(SHOTS, visitor, `widget-launcher-${lang}`, 100);
      await launcher.click();
      const dialog = visitor.getByRole('dialog', { name: w.name });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(w.greeting);
      const streamed = visitor.waitForResponse((r) => r.url().endsWith('/stream'));
      await dialog.getByPlaceholder(w.placeholder).fill(w.question);
      await dialog.getByPlaceholder(w.placeholder).press('Enter');
      const response = await streamed;
      expect(response.headers()['content-type']).toMatch(/^text\/event-stream/);
      expect(response.headers()['access-control-allow-origin']).toBe(siteUrl);
      const answer = dialog.locator('.m.ai').last();
      await expect(answer).toContainText(w.answer, { timeout: 30_000 });
      // Cited by its title, the file name without ".pdf" (issue 34 item 10).
      await expect(answer).toContainText(w.pdf.replace(/\.pdf$/, ''));
      await shotInto(SHOTS, visitor, `widget-answer-${lang}`, 300);
      // What the visitor sees meets WCAG 2.1 AA (axe, inside the widget's shadow root): nothing serious or critical.
      const audit = await new AxeBuilder({ page: visitor })
        .include('[data-sparks-widget]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      expect(
        audit.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
      // Escape closes and gives the focus back to the launcher.
      await visitor.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(launcher).toBeFocused();
      // The conversation is kept in the host page's storage: a reload shows it again; "new conversation"
      // starts afresh with the greeting alone, and the next question gets a conversation of its own.
      await visitor.reload();
      await visitor.getByRole('button', { name: w.open }).click();
      await expect(dialog.locator('.m.ai').last()).toContainText(w.answer, { timeout: 30_000 });
      const kept = await visitor.evaluate<string>("Object.values(localStorage).join(' ')");
      await dialog.getByRole('button', { name: w.newConversation }).click();
      await expect(dialog.locator('.m.ai')).toHaveCount(1);
      await expect(dialog.locator('.m.ai')).toContainText(w.greeting);
      await expect(dialog.getByPlaceholder(w.placeholder)).toBeFocused();
      await dialog.getByPlaceholder(w.placeholder).fill(w.question);
      await dialog.getByPlaceholder(w.placeholder).press('Enter');
      await expect(dialog.locator('.m.ai').last()).toContainText(w.answer, { timeout: 30_000 });
      const conversationOf = (stored: string) => /"c":"([^"]+)"/.exec(stored)?.[1];
      const fresh = await visitor.evaluate<string>("Object.values(localStorage).join(' ')");
      expect(conversationOf(fresh)).toBeTruthy();
      expect(conversationOf(fresh)).not.toBe(conversationOf(kept));
      await visitor.keyboard.press('Escape');
      await visitor.setViewportSize({ width: 390, height: 844 });
      await launcher.click();
      await expect(dialog).toBeVisible();
      // Full screen it is modal: Tab goes round its own controls, never into the page hidden behind it.
      await expect(dialog).toHaveAttribute('aria-modal', 'true');
      for (let i = 0; i < 8; i += 1) {
        await visitor.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
        // The focus inside the widget's shadow root is that root's activeElement.
        expect(await dialog.evaluate((d) => d.contains(d.getRootNode().activeElement))).toBe(true);
      }
      await shotInto(SHOTS, visitor, `widget-phone-${lang}`, 300);
      await visitorContext.close();

      // The deploy assistant told the owner in its conversation, on the page left open, in the owner's language.
      const told = page.locator('.chat-bubble--assistant', { hasText: firstSeenText(lang, w.name, siteUrl) });
      await expect(told).toHaveCount(1, { timeout: 30_000 });
      expect(await page.evaluate(() => (globalThis as { stillOpen?: boolean }).stillOpen)).toBe(true);
      await shotInto(SHOTS, page, `deploy-first-seen-${lang}`, 300);
      // Seen again (the page reloaded, another page view): said once.
      const again = await browser.newPage();
      await again.goto(siteUrl);
      await expect(again.getByRole('button', { name: w.open })).toBeVisible();
      await again.close();
      await page.reload();
      await expect(page.locator('.chat-bubble--assistant').first()).toBeVisible({ timeout: 30_000 });
      await expect(told).toHaveCount(1);

      // The unlisted site: the server refuses the Spark's config (403, no CORS header), nothing is drawn.
      const direct = await request.get(
        `${new URL(snippet.match(/src="([^"]+)"/)![1]).origin}/api/v1/public/widgets/${
          snippet.match(/data-token="([^"]+)"/)![1]
        }/config`,
        { headers: { Origin: unlisted.origin } },
      );
      expect(direct.status()).toBe(403);
      expect(direct.headers()['access-control-allow-origin']).toBeUndefined();
      const stranger = await browser.newPage();
      const asked = stranger.waitForRequest((r) => r.url().endsWith('/config'));
      await stranger.goto(unlisted.origin);
      await asked;
      await stranger.waitForLoadState('networkidle');
      await expect(stranger.locator('[data-sparks-widget]')).toHaveCount(0);
      await shotInto(SHOTS, stranger, `widget-unlisted-${lang}`, 100);
      await stranger.close();
    } finally {
      await site.close();
      await unlisted.close();
    }
  });
}

for (const lang of ['en', 'es'] as const) {
  test(`out of interactions, the widget answers politely in the visitor's language and takes an e-mail for the owner (${lang})`, async ({
    page,
    request,
    context,
    browser,
  }) => {
    test.setTimeout(180_000);
    const w = words[lang];
    const texts = TEXTS[lang];
    const { account, sparkId } = await sparkWithPdfIn(request, lang);
    const deployment = `/api/v1/sparks/${sparkId}/deployment`;
    const site = await hostPage();
    try {
      const { snippet } = await dataOf<{ snippet: string }>(
        await request.post(deployment, { headers: account.headers, data: {} }),
      );
      await dataOf(
        await request.post(`${deployment}/origins`, { headers: account.headers, data: { origin: site.origin } }),
      );
      site.show(snippet);
      // The tenant's interactions are used up (the widget's API answers 402 INTERACTIONS_EXHAUSTED, the visitor's message).
      await onTenant(account, 'UPDATE tenants SET usage_interactions = limit_interactions');

      const visitor = await browser.newPage({ locale: lang === 'es' ? 'es-ES' : 'en-US' });
      await visitor.goto(site.origin);
      await visitor.getByRole('button', { name: w.open }).click();
      const dialog = visitor.getByRole('dialog', { name: w.name });
      await expect(dialog).toContainText(w.greeting);
      const refused = visitor.waitForResponse((r) => r.url().endsWith('/stream'));
      await dialog.getByPlaceholder(w.placeholder).fill(w.question);
      await dialog.getByPlaceholder(w.placeholder).press('Enter');
      expect((await refused).status()).toBe(402);
      await expect(dialog).toContainText(texts.outOfInteractions);
      // No raw error: neither the API's code or message nor a generic failure; no answer.
      await expect(dialog).not.toContainText(/OUT_OF_INTERACTIONS|402|interaction|interacci|error/i);
      await expect(dialog).not.toContainText(texts.failed);
      await expect(dialog.locator('.m.ai')).not.toContainText(w.answer);
      const email = dialog.getByLabel(texts.email);
      await shotInto(SHOTS, visitor, `widget-out-of-interactions-${lang}`, 300);
      const address = `visitor.${lang}.${Date.now()}@example.com`;
      await email.fill(address);
      await dialog.getByRole('button', { name: texts.leaveEmail }).click();
      await expect(dialog).toContainText(texts.emailSaved);
      await expect(dialog.getByLabel(texts.email)).toHaveCount(0);
      await shotInto(SHOTS, visitor, `widget-email-left-${lang}`, 300);
      await visitor.close();

      // The owner reads it on /deploy, in the Spark's visitors' conversations.
      await useSession(context, account, lang);
      await page.goto(`/deploy?q=${encodeURIComponent(w.name)}`);
      const panel = page.getByTestId('deploy-panel');
      await expect(panel).toContainText(fill(catalogues[lang].deploy.panel.contact, { email: address }), {
        timeout: 90_000,
      });
      await panel.getByText(fill(catalogues[lang].deploy.panel.contact, { email: address })).scrollIntoViewIfNeeded();
      await shotInto(SHOTS, page, `deploy-contact-${lang}`, 300);
    } finally {
      await site.close();
    }
  });
}

test('the loader stays within 3 KB gzipped and loads no icon set of its own', () => {
  const loader = fs.readFileSync(path.join(__dirname, '..', 'web', 'dist', 'widget', 'widget.js'));
  expect(gzipSync(loader, { level: 9 }).length).toBeLessThanOrEqual(3 * 1024);
  // The icons come with the Spark's config: none of their paths is in the loader.
  expect(loader.toString('utf8')).not.toContain('M12 3l1.9 5.1');
});
