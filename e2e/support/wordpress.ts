import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A throwaway WordPress for the Pulse tests: Debian's `wordpress` package copied into a temp folder
 * with its own wp-config.php and database (MariaDB), served by PHP's built-in server, installed
 * non-interactively, with the plugin from `pulse/sparks-pulse` activated. scripts/test.mjs installs
 * the Debian packages (wordpress, php-cli, php-mysql, mariadb-server) when they are missing.
 */
export interface WordPress {
  url: string;
  admin: { user: string; password: string };
  /** A published page (for the "only chosen pages" setting). */
  pageId: number;
  /** Runs PHP inside the site (wp-load.php loaded) and returns what it prints. */
  php(code: string): string;
  stop(): Promise<void>;
}

const WORDPRESS = process.env.WORDPRESS_DIR ?? '/usr/share/wordpress';
const ROOT = path.resolve(__dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Why WordPress cannot run here, or undefined when it can. */
function wordpressMissing(): string | undefined {
  if (spawnSync('php', ['-v']).status !== 0) return 'php is not installed (apt-get install php-cli php-mysql)';
  if (!fs.existsSync(path.join(WORDPRESS, 'wp-settings.php')))
    return `WordPress is not installed at ${WORDPRESS} (apt-get install wordpress)`;
  // Without a theme WordPress answers every public page with an empty body.
  if (!fs.existsSync(path.join(WORDPRESS, 'wp-content', 'themes', 'twentytwentythree', 'style.css')))
    return 'WordPress has no theme (apt-get install wordpress-theme-twentytwentythree)';
  const mysqli = spawnSync('php', ['-r', 'exit(function_exists("mysqli_connect") ? 0 : 1);']);
  if (mysqli.status !== 0) return "PHP's mysqli is missing (apt-get install php-mysql)";
  return undefined;
}

const db = {
  host: process.env.WP_DB_HOST ?? 'localhost',
  user: process.env.WP_DB_USER ?? 'root',
  password: process.env.WP_DB_PASSWORD ?? '',
};

function phpString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Whether a process of the group led by `pid` is still alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops PHP's server and its forked workers (the whole process group): SIGTERM, then SIGKILL after 5 s.
 * Stopping only the parent left four workers serving the site after the run had ended.
 */
async function stopGroup(server: ChildProcess): Promise<void> {
  const pid = server.pid;
  if (!pid) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + 5_000;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (groupAlive(pid)) signal('SIGKILL');
  while (groupAlive(pid)) await new Promise((r) => setTimeout(r, 50));
}

/** Whether anything still accepts connections at `url` (after stop(), nothing must). */
export function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.setTimeout(2_000);
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

export async function startWordPress(options: { locale?: string } = {}): Promise<WordPress> {
  const missing = wordpressMissing();
  if (missing) throw new Error(`The Pulse tests need WordPress: ${missing}`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparks-wp-'));
  const database = `sparks_wp_${process.pid}_${port}`;

  // WordPress resolves its own folder from __DIR__, which follows symlinks: copy, do not link.
  fs.cpSync(WORDPRESS, dir, { recursive: true, dereference: true });
  const plugin = path.join(dir, 'wp-content', 'plugins', 'sparks-pulse');
  fs.cpSync(path.join(ROOT, 'pulse', 'sparks-pulse'), plugin, { recursive: true });
  for (const file of fs.readdirSync(plugin, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.php'))) {
    const lint = spawnSync('php', ['-l', path.join(plugin, file)], { encoding: 'utf8' });
    if (lint.status !== 0) throw new Error(`the plugin is not valid PHP: ${lint.stdout}${lint.stderr}`);
  }
  const mo = spawnSync(
    process.execPath,
    [path.join(ROOT, 'scripts', 'lib', 'pulse.mjs'), '--mo', path.join(plugin, 'languages')],
    {
      encoding: 'utf8',
    },
  );
  if (mo.status !== 0) throw new Error(`could not compile the plugin's translations: ${mo.stderr}`);

  const salt = () => crypto.randomBytes(32).toString('base64url');
  const keys = [
    'AUTH_KEY',
    'SECURE_AUTH_KEY',
    'LOGGED_IN_KEY',
    'NONCE_KEY',
    'AUTH_SALT',
    'SECURE_AUTH_SALT',
    'LOGGED_IN_SALT',
    'NONCE_SALT',
  ];
  fs.writeFileSync(
    path.join(dir, 'wp-config.php'),
    `<?php
define('DB_NAME', ${phpString(database)});
define('DB_USER', ${phpString(db.user)});
define('DB_PASSWORD', ${phpString(db.password)});
define('DB_HOST', ${phpString(db.host)});
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
${keys.map((k) => `define('${k}', '${salt()}');`).join('\n')}
$table_prefix = 'wp_';
define('WP_HOME', '${url}');
define('WP_SITEURL', '${url}');
define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
define('WP_CONTENT_URL', '${url}/wp-content');
define('WP_DEBUG', true);
define('WP_DEBUG_DISPLAY', false);
define('WP_DEBUG_LOG', __DIR__ . '/debug.log');
define('AUTOMATIC_UPDATER_DISABLED', true);
define('DISABLE_WP_CRON', true);
// The network is closed here: no update checks to wordpress.org (requests back to this host stay allowed).
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_ACCESSIBLE_HOSTS', '127.0.0.1,localhost');
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`,
  );

  const runPhp = (code: string, env: Record<string, string> = {}): string => {
    const script = path.join(dir, `.run-${crypto.randomBytes(4).toString('hex')}.php`);
    fs.writeFileSync(
      script,
      `<?php
$_SERVER['HTTP_HOST'] = '127.0.0.1:${port}';
$_SERVER['SERVER_NAME'] = '127.0.0.1';
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
${code}
`,
    );
    try {
      const out = spawnSync('php', [script], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });
      if (out.status !== 0) throw new Error(`php failed (${out.status}): ${out.stderr || out.stdout}`);
      return out.stdout;
    } finally {
      fs.rmSync(script, { force: true });
    }
  };

  const [dbHost, dbPort] = db.host.split(':');
  runPhp(`
mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
$link = new mysqli(${phpString(dbHost)}, ${phpString(db.user)}, ${phpString(db.password)}, '', ${Number(dbPort ?? 3306)});
$link->query('CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4');
`);
  const installed = runPhp(`
define('WP_INSTALLING', true);
require __DIR__ . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';
wp_install('Panadería Espiga', 'admin', 'admin@example.com', false, '', 'admin-Pa55word');
update_option('permalink_structure', '');
${options.locale ? `update_option('WPLANG', ${phpString(options.locale)});` : ''}
$activated = activate_plugin('sparks-pulse/sparks-pulse.php');
if (is_wp_error($activated)) { fwrite(STDERR, $activated->get_error_message()); exit(1); }
$page = wp_insert_post(array('post_type' => 'page', 'post_status' => 'publish', 'post_title' => 'Contact',
  'post_content' => '<!-- wp:paragraph --><p>Come and see us.</p><!-- /wp:paragraph -->'));
echo json_encode(array('page' => $page));
`);
  const { page } = JSON.parse(installed.trim().split('\n').pop() ?? '{}') as { page: number };

  const server: ChildProcess = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', dir], {
    cwd: dir,
    // Several workers: an admin page loads its scripts and styles in parallel.
    env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
    stdio: ['ignore', 'ignore', 'pipe'],
    // Its own process group: the workers are forked children that outlive a signal to the parent alone.
    detached: true,
  });
  let log = '';
  server.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(`${url}/wp-login.php`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || server.exitCode !== null) {
      await stopGroup(server);
      throw new Error(`WordPress did not start: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    url,
    admin: { user: 'admin', password: 'admin-Pa55word' },
    pageId: page,
    php: (code: string) => runPhp(`require __DIR__ . '/wp-load.php';\n${code}`),
    async stop() {
      await stopGroup(server);
      try {
        runPhp(`
$link = new mysqli(${phpString(dbHost)}, ${phpString(db.user)}, ${phpString(db.password)}, '', ${Number(dbPort ?? 3306)});
$link->query('DROP DATABASE IF EXISTS \`${database}\`');
`);
      } finally {
        if (fs.existsSync(path.join(dir, 'debug.log'))) {
          const debug = fs.readFileSync(path.join(dir, 'debug.log'), 'utf8');
          if (/sparks-pulse/i.test(debug)) console.warn(`WordPress notices about the plugin:\n${debug}`);
        }
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
