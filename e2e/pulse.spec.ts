import fs from 'node:fs';

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import esDeploy from '../web/public/locales/es/deploy.json';
import { useSession, type Account } from './support/account';
import { shotInto } from './support/shots';
import { dataOf, sparkWithPdf } from './support/sparks';
import { answers, startWordPress, type WordPress } from './support/wordpress';

/**
 * The Pulse (pulse/sparks-pulse), the WordPress plugin, in a real WordPress (Debian's package, MariaDB,
 * PHP's built-in server): its settings page in English and Spanish, what it refuses and how it
 * sanitizes what it stores, and the whole way: the owner gets a one-time site key in Sparks, connects
 * the site with it, and a visitor of the WordPress site asks the widget a question that the Spark
 * answers from its PDF. PULSE_SHOTS_DIR=/tmp/shots-pulse keeps screenshots.
 */
const shots = process.env.PULSE_SHOTS_DIR;

// One server for the file's tests (a fixed port): they stay on one worker, one after the other.
test.describe.configure({ mode: 'default' });

let wp: WordPress;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  wp = await startWordPress();
});

test.afterAll(async () => {
  if (!wp) return;
  await wp.stop();
  // A run stops everything it started: PHP's forked workers used to keep serving the site.
  expect(await answers(wp.url), `WordPress still answers at ${wp.url} after stop()`).toBe(false);
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${wp.url}/wp-login.php`);
  await page.locator('#user_login').fill(wp.admin.user);
  await page.locator('#user_pass').fill(wp.admin.password);
  await page.locator('#wp-submit').click();
  await page.waitForURL(/\/wp-admin\//);
}

function option(): Record<string, unknown> {
  return JSON.parse(wp.php(`echo wp_json_encode(get_option('sparks_pulse'));`)) as Record<string, unknown>;
}

const SETTINGS = () => `${wp.url}/wp-admin/options-general.php?page=sparks-pulse`;

for (const lang of ['en', 'es'] as const) {
  const t =
    lang === 'en'
      ? {
          key: 'Site key',
          connect: 'Connect',
          notKey: 'This does not look like a site key',
          badKey: 'This site key is not valid',
          unreachable: 'Could not reach Sparks at',
        }
      : {
          key: 'Clave del sitio',
          connect: 'Conectar',
          notKey: 'Esto no parece una clave del sitio',
          badKey: 'Esta clave del sitio no es válida',
          unreachable: 'No se pudo contactar con Sparks en',
        };

  test(`Pulse settings: connect refuses bad keys and addresses with a clear message (${lang})`, async ({
    page,
    baseURL,
  }) => {
    wp.php(`update_user_meta(1, 'locale', '${lang === 'es' ? 'es_ES' : 'en_US'}');`);
    await signIn(page);
    await page.goto(SETTINGS());
    await expect(page.getByLabel(t.key)).toBeVisible();
    await shotInto(shots, page, `settings-${lang}`, 200);

    // Not a key at all: refused before anything is sent.
    await page.locator('#sparks_pulse_server').fill(baseURL!);
    await page.getByLabel(t.key).fill('hello');
    await page.getByRole('button', { name: t.connect, exact: true }).click();
    await expect(page.locator('.notice-error')).toContainText(t.notKey);

    // A well-formed key Sparks does not know.
    await page.locator('#sparks_pulse_server').fill(baseURL!);
    await page.getByLabel(t.key).fill(`sk_${'x'.repeat(32)}`);
    await page.getByRole('button', { name: t.connect, exact: true }).click();
    await expect(page.locator('.notice-error')).toContainText(t.badKey);
    await expect(page.locator('#sparks_pulse_server')).toHaveValue(baseURL!);
    await shotInto(shots, page, `bad-key-${lang}`, 200);

    // A Sparks that does not answer.
    await page.locator('#sparks_pulse_server').fill('http://127.0.0.1:9');
    await page.getByLabel(t.key).fill(`sk_${'y'.repeat(32)}`);
    await page.getByRole('button', { name: t.connect, exact: true }).click();
    await expect(page.locator('.notice-error')).toContainText(t.unreachable);

    expect(option().token ?? '').toBe('');
  });
}

test('Pulse settings: hostile display values are not stored, and nothing stored is printed raw', async ({ page }) => {
  wp.php(`update_user_meta(1, 'locale', 'en_US');`);
  await signIn(page);
  await page.goto(SETTINGS());
  // Forge the form: values the page never offers.
  await page.evaluate(`(() => {
    const form = document.querySelector('form[action="options.php"]');
    const add = (name, value) => {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.appendChild(input);
    };
    form.querySelector('#sparks_pulse_position').innerHTML =
      '<option value="&quot;><script>alert(1)</script>" selected>x</option>';
    add('sparks_pulse[pages][]', '${wp.pageId}');
    add('sparks_pulse[pages][]', '1'); // the first post: not a page
    add('sparks_pulse[pages][]', '-5');
    add('sparks_pulse[token]', 'forged-token');
    add('sparks_pulse[script_url]', 'javascript:alert(1)');
    form.querySelector('input[name="sparks_pulse[display]"][value="pages"]').checked = true;
  })()`);
  await page.locator('form[action="options.php"] [type=submit]').click();
  await expect(page.locator('#setting-error-settings_updated, .notice-success').first()).toBeVisible();
  const stored = option();
  expect(stored.position).toBe('default');
  expect(stored.display).toBe('pages');
  expect(stored.pages).toEqual([wp.pageId]);
  expect(stored.token).toBe('');
  expect(stored.script_url).toBe('');
  // Not connected: no widget anywhere on the site.
  const home = await (await fetch(`${wp.url}/?page_id=${wp.pageId}`)).text();
  expect(home).toContain('Contact'); // the page itself is there (a site without a theme answers nothing at all)
  expect(home).not.toContain('widget.js');
});

/** A Spanish Spark with its PDF read, published for the Pulse, on an account whose plan allows one deployment. */
async function publishedSpark(request: APIRequestContext): Promise<{ account: Account; sparkId: string }> {
  const published = await sparkWithPdf(request, {
    lang: 'es',
    tag: 'pulse',
    name: 'Panadería Espiga',
    greeting: '¡Hola! ¿Qué quieres saber?',
    pdf: 'Espiga.pdf',
    title: 'Panadería Espiga',
    text:
      'La Panadería Espiga abre de lunes a sábado de 8:00 a 20:00. Los domingos abrimos hasta las 14:00. ' +
      'La barra de pan de masa madre cuesta 2,40 euros.',
  });
  await dataOf(
    await request.post(`/api/v1/sparks/${published.sparkId}/deployment`, {
      headers: published.account.headers,
      data: { channel: 'pulse' },
    }),
  );
  return published;
}

test('the owner takes the plugin and a one-time key from /deploy, connects the site, and the widget answers visitors of the WordPress site from the PDF', async ({
  page,
  context,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const { account, sparkId } = await publishedSpark(request);
  const deployment = `/api/v1/sparks/${sparkId}/deployment`;

  // The deploy page's panel for a Spark published for the Pulse: the plugin's zip and the site key.
  await useSession(context, account, 'es');
  const owner = await context.newPage();
  await owner.goto(`/deploy?q=${encodeURIComponent('Panadería Espiga')}`);
  const panel = owner.getByTestId('deploy-panel');
  await expect(panel.getByRole('radio', { name: esDeploy.panel.channels.pulse })).toBeChecked({ timeout: 90_000 });
  const link = panel.getByRole('link', { name: esDeploy.panel.pulseDownload });
  await expect(link).toHaveAttribute('download');
  const [download] = await Promise.all([owner.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('sparks-pulse.zip');
  const zip = fs.readFileSync(await download.path());
  expect(zip.subarray(0, 2).toString()).toBe('PK');
  for (const file of [
    'sparks-pulse/sparks-pulse.php',
    'sparks-pulse/readme.txt',
    'sparks-pulse/languages/sparks-pulse-es_ES.mo',
  ])
    expect(zip.toString('latin1')).toContain(file);
  await panel.getByRole('button', { name: esDeploy.panel.siteKey }).click();
  const shown = panel.getByTestId('deploy-site-key');
  await expect(shown).toHaveText(/^sk_[\w-]{20,}$/);
  await expect(panel).toContainText(esDeploy.panel.siteKeyHint);
  await shown.scrollIntoViewIfNeeded();
  await shotInto(shots, owner, 'deploy-site-key-es', 300);
  const siteKey = (await shown.textContent())!.trim();
  await owner.close();

  wp.php(`update_user_meta(1, 'locale', 'es_ES');`);
  await signIn(page);
  await page.goto(SETTINGS());
  await page.locator('#sparks_pulse_server').fill(baseURL!);
  await page.getByLabel('Clave del sitio').fill(siteKey);
  await page.getByRole('button', { name: 'Conectar', exact: true }).click();
  await expect(page.locator('.notice-success')).toContainText('Conectado. Panadería Espiga ya responde en este sitio.');
  await expect(page.locator('.sparks-pulse-connected')).toContainText('Panadería Espiga');
  await shotInto(shots, page, 'connected-es', 200);

  // Connecting put the site on the Spark's allow-list, marked as the Pulse's.
  const view = await dataOf<{ origins: Array<{ origin: string; source: string }> }>(
    await request.get(deployment, { headers: account.headers }),
  );
  expect(view.origins).toContainEqual(expect.objectContaining({ origin: wp.url, source: 'pulse' }));

  // The key worked once.
  const again = await request.post('/api/v1/public/connect', { data: { siteKey, origin: 'http://127.0.0.1:9' } });
  expect(again.ok()).toBe(false);

  // The owner puts the chat in the bottom-left corner.
  await page.locator('#sparks_pulse_position').selectOption('left');
  await page.locator('form[action="options.php"] [type=submit]').click();
  await expect(page.locator('#setting-error-settings_updated, .notice-success').first()).toBeVisible();

  // The site now carries the snippet, with the Spark's public token; a visitor asks and gets the answer.
  const html = await (await fetch(`${wp.url}/?page_id=${wp.pageId}`)).text();
  expect(html).toMatch(/<script[^>]+src="[^"]+\/widget\.js"[^>]+data-token="dt_[^"]+"/);
  expect(html).toContain('data-position="left"');
  const visitor = await browser.newPage({ locale: 'es-ES' });
  try {
    await visitor.goto(`${wp.url}/?page_id=${wp.pageId}`);
    const launcher = visitor.getByRole('button', { name: /Abrir el chat con Panadería Espiga/ });
    await expect(launcher).toBeVisible({ timeout: 20_000 });
    expect((await launcher.boundingBox())!.x).toBeLessThan(200);
    await launcher.click();
    const dialog = visitor.getByRole('dialog', { name: 'Panadería Espiga' });
    await expect(dialog).toContainText('¡Hola! ¿Qué quieres saber?');
    const box = dialog.getByPlaceholder('Escribe tu pregunta…');
    await box.fill('¿Hasta qué hora abrís los domingos?');
    await box.press('Enter');
    const answer = dialog.locator('.m.ai').last();
    await expect(answer).toContainText('14:00', { timeout: 30_000 });
    // Cited by its title, the file name without ".pdf" (issue 34 item 10).
    await expect(answer).toContainText(/Espiga, (page|página) \d/);
    await shotInto(shots, visitor, 'wordpress-widget-answer-es', 300);
  } finally {
    await visitor.close();
  }

  // Disconnecting takes the widget off the site.
  await page.getByRole('button', { name: 'Desconectar' }).click();
  await expect(page.locator('.notice-success')).toContainText('Desconectado');
  expect(await (await fetch(`${wp.url}/?page_id=${wp.pageId}`)).text()).not.toContain('widget.js');
});
