// Helpers shared by start.mjs and test.mjs: find or install OS binaries, start a throwaway Redis
// server, wait for ports. Node built-ins only: this runs before npm install.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export function log(...args) {
  console.log('[sparks]', ...args);
}

export function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Runs a command to completion, inheriting stdio; throws on failure. */
export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed with ${r.status ?? r.signal}`);
  }
}

/**
 * Runs a command to completion with its output held back, then prints it in one block under `label`
 * (for tiers that run side by side); rejects on failure. The promise carries the process as `.child`.
 */
export function runBuffered(label, cmd, args, options = {}) {
  const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const done = new Promise((resolve, reject) => {
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const out = Buffer.concat(chunks).toString();
      if (out.trim() !== '')
        process.stdout.write(`[sparks] ┌ ${label}\n${out.replace(/\n?$/, '\n')}[sparks] └ ${label}\n`);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} failed with ${code ?? signal}`));
    });
  });
  // The process, for a caller that must stop it early.
  return Object.assign(done, { child });
}

let aptUpdated = false;
/** Installs Debian packages when we are root on a Debian/Ubuntu machine; returns false otherwise. */
export function aptInstall(packages) {
  if (!isRoot || !which('apt-get')) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    aptUpdated = true;
  }
  const r = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
    stdio: 'inherit',
    env,
  });
  return r.status === 0;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export function isPortOpen(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function waitFor(check, what, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** Sends PING over the Redis protocol and expects PONG. */
export function redisPing(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    let buf = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      buf += d.toString();
      if (buf.includes('\r\n')) done(buf.startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
  });
}

export function findRedisServer({ install }) {
  let bin = which('redis-server');
  if (!bin && install && aptInstall(['redis-server'])) bin = which('redis-server');
  return bin;
}

/** poppler's pdftotext and pdfinfo (Debian: poppler-utils), the worker's first PDF reader. */
export function findPdftotext({ install }) {
  const found = () => (which('pdfinfo') ? which('pdftotext') : null);
  let bin = found();
  if (!bin && install && aptInstall(['poppler-utils'])) bin = found();
  return bin;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Our servers run in process groups of their own (a terminal's Ctrl-C reaches only the start script,
 * which stops them last), so they outlive a start script that was killed. Such a leftover still holds
 * its data folder: stop it (`signal`) when the pid in `pidFile` is alive and its command line names
 * `marker`.
 */
export async function stopLeftover(pidFile, marker, signal = 'SIGTERM') {
  let pid;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  if (!pid || !alive(pid)) return;
  let cmdline = '';
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // No /proc (macOS): trust the pid file, which the server removes when it stops.
  }
  if (cmdline && !cmdline.includes(marker)) return;
  log(`a server left running by an earlier start (pid ${pid}) holds ${path.dirname(pidFile)}: stopping it`);
  process.kill(pid, signal);
  await waitFor(async () => !alive(pid), `the earlier server (pid ${pid}) to stop`, 30000);
}

/** Starts a private redis-server in a process group of its own; resolves once it answers PING. */
export async function startRedis({ bin, port, dir, persist }) {
  fs.mkdirSync(dir, { recursive: true });
  const pidFile = path.join(dir, 'redis.pid');
  await stopLeftover(pidFile, 'redis-server');
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--daemonize',
    'no',
    '--pidfile',
    pidFile,
    '--maxmemory-policy',
    'noeviction',
    '--protected-mode',
    'yes',
    ...(persist ? ['--appendonly', 'yes', '--save', '60 1'] : ['--appendonly', 'no', '--save', '']),
    '--logfile',
    path.join(dir, 'redis.log'),
  ];
  const child = spawn(bin, args, { stdio: 'ignore', detached: true });
  await waitFor(() => redisPing(port), `redis-server on port ${port}`, 20000);
  return child;
}

/** Sends SIGTERM and waits for the child to exit (SIGKILL after `graceMs`). */
export function stopChild(child, graceMs = 10000) {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export function newestMtime(paths) {
  let newest = 0;
  const walk = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      if (p.endsWith('node_modules') || p.endsWith('dist')) return;
      for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    } else if (st.mtimeMs > newest) newest = st.mtimeMs;
  };
  paths.forEach(walk);
  return newest;
}

/** npm install when node_modules is missing or older than the lockfile. */
export function ensureInstalled(root) {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  const stale =
    !fs.existsSync(marker) || (fs.existsSync(lock) && fs.statSync(lock).mtimeMs > fs.statSync(marker).mtimeMs + 1000);
  if (!stale) return;
  log('installing npm packages…');
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  // `npm install` rather than `npm ci`: the lockfile written against a registry that serves only
  // this platform's optional binaries lacks the other platforms' entries, which `npm ci` rejects.
  run('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, env });
}
