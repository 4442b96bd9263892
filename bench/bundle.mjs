#!/usr/bin/env node
// Bundle size (issue 7): the gzipped JavaScript a browser loads to show a route of the SPA, against the
// 150 kB budget.
//
//   node bench/bundle.mjs [--no-build] [--dist web/dist] [--budget 150] [--json out.json]
//
// Builds web/ with Vite into a scratch folder (removed at the end), or, with --no-build, reads an existing
// build (web/dist, or --dist <folder>). From Vite's build manifest (dist/.vite/manifest.json) it follows the
// static imports of the entry chunk and of the lazy modules a route renders at once — for the signed-in `/`
// the main layout and the chat home, for `/auth` the sign-in page — and adds up the gzip size (zlib level 6,
// the usual server setting) of every JavaScript file in that closure, each file once. 1 kB = 1000 bytes, as
// Vite prints. Chunks a route may fetch later (the markdown renderer when the first reply arrives, the menus
// when pointed at, the dialogs) are listed apart and not counted. Exits 1 when a route is over the budget.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { log, ROOT, table, writeJsonIfAsked } from './lib/common.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const BUDGET_KB = Number(option('budget') ?? 150);
const DIST = option('dist') ? path.resolve(option('dist')) : undefined;
const BUILD = !args.includes('--no-build') && !DIST;

/** What each measured route renders on its first paint, as source modules of web/ (keys of the manifest). */
const ROUTES = [
  {
    route: '/',
    who: 'signed in',
    modules: ['src/layout/MainLayout.tsx', 'src/features/chat/pages/ChatHomePage.tsx'],
  },
  { route: '/auth', who: 'signed out', modules: ['src/features/auth/pages/AuthPage.tsx'] },
];

const kB = (bytes) => (bytes / 1000).toFixed(1);

function build() {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparks-bench-bundle-'));
  const remove = () => fs.rmSync(outDir, { recursive: true, force: true });
  process.on('exit', remove);
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      remove();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  log(`building web/ into ${outDir}`);
  const started = Date.now();
  const result = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: path.join(ROOT, 'web'),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`vite build failed (${result.status ?? result.signal})`);
  log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return outDir;
}

function readManifest(dist) {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(file))
    throw new Error(`${file} is missing: build web/ with build.manifest on (web/vite.config.ts), or drop --no-build`);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function main() {
  const dist = BUILD ? build() : (DIST ?? path.join(ROOT, 'web', 'dist'));
  const manifest = readManifest(dist);
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entry) throw new Error('the manifest has no entry chunk');

  const sizes = new Map();
  /** Raw and gzip bytes of a built file. */
  const size = (file) => {
    if (!sizes.has(file)) {
      const bytes = fs.readFileSync(path.join(dist, file));
      sizes.set(file, { raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 6 }).length });
    }
    return sizes.get(file);
  };
  /** The manifest keys `keys` load before running: themselves and their static imports, transitively. */
  const closure = (keys) => {
    const seen = new Set();
    const visit = (key) => {
      if (seen.has(key)) return;
      if (!manifest[key])
        throw new Error(`${key} is not in the manifest (moved or renamed? see ROUTES in this script)`);
      seen.add(key);
      for (const imported of manifest[key].imports ?? []) visit(imported);
    };
    keys.forEach(visit);
    return seen;
  };
  const total = (keys, pick = (k) => [manifest[k].file]) => {
    const files = new Set([...keys].flatMap(pick));
    let raw = 0;
    let gzip = 0;
    for (const file of files) {
      const s = size(file);
      raw += s.raw;
      gzip += s.gzip;
    }
    return { files: files.size, raw, gzip };
  };
  /** A chunk's name in the report: its source module, or for a shared chunk its name without the hash. */
  const label = (key) => {
    if (key === entry) return `${key} (entry)`;
    return key.startsWith('_') ? `${key.slice(1).replace(/-[\w-]{8}\.js$/, '')} (shared)` : key;
  };

  const routes = ROUTES.map(({ route, who, modules }) => {
    const keys = closure([entry, ...modules]);
    const js = total(keys);
    const css = total(keys, (k) => manifest[k].css ?? []);
    const chunks = [...keys]
      .map((key) => ({ key, name: label(key), file: manifest[key].file, ...size(manifest[key].file) }))
      .sort((a, b) => b.gzip - a.gzip);
    // What the route's chunks may import later; the pages of other routes (the entry's lazy routes) are left out.
    const later = new Set(
      [...keys].filter((key) => key !== entry).flatMap((key) => manifest[key].dynamicImports ?? []),
    );
    const onDemand = [...later]
      .filter((key) => !keys.has(key))
      .map((key) => {
        const extra = [...closure([key])].filter((k) => !keys.has(k));
        return { key, ...total(extra) };
      })
      .sort((a, b) => b.gzip - a.gzip);
    return { route, who, modules, ...js, css, over: js.gzip > BUDGET_KB * 1000, chunks, onDemand };
  });

  const vite = JSON.parse(fs.readFileSync(path.join(ROOT, 'web', 'node_modules', 'vite', 'package.json'), 'utf8'));
  const report = [
    `## Bundle size (issue 7) — ${new Date().toISOString().slice(0, 10)}`,
    '',
    `Vite ${vite.version} production build${BUILD ? '' : ` (${path.relative(ROOT, dist) || dist})`}; ` +
      `gzip level 6 of each file; 1 kB = 1000 bytes; Node ${process.version}.`,
    '',
    table(
      [
        ['route', (r) => `\`${r.route}\` (${r.who})`],
        ['JS files', (r) => String(r.files)],
        ['JS raw kB', (r) => kB(r.raw)],
        ['JS gzip kB', (r) => `**${kB(r.gzip)}**`],
        [`budget ${BUDGET_KB} kB`, (r) => (r.over ? '**over**' : 'within')],
        ['CSS gzip kB (not counted)', (r) => kB(r.css.gzip)],
      ],
      routes,
    ),
  ];
  for (const r of routes) {
    report.push(
      '',
      `### \`${r.route}\` (${r.who}): entry + ${r.modules.join(' + ')}`,
      '',
      table(
        [
          ['chunk', (c) => c.name],
          ['gzip kB', (c) => kB(c.gzip)],
          ['raw kB', (c) => kB(c.raw)],
        ],
        r.chunks,
      ),
    );
    if (r.onDemand.length > 0)
      report.push(
        '',
        `Fetched later from \`${r.route}\`, when needed (not counted):`,
        '',
        table(
          [
            ['lazy module', (c) => label(c.key)],
            ['adds gzip kB', (c) => kB(c.gzip)],
          ],
          r.onDemand,
        ),
      );
  }
  console.log(report.join('\n'));
  writeJsonIfAsked({
    budgetKb: BUDGET_KB,
    routes: routes.map(({ route, who, modules, files, raw, gzip, css, over, chunks, onDemand }) => ({
      route,
      who,
      modules,
      files,
      raw,
      gzip,
      cssGzip: css.gzip,
      over,
      chunks,
      onDemand,
    })),
  });
  const over = routes.filter((r) => r.over);
  if (over.length > 0) {
    log(`over the ${BUDGET_KB} kB budget: ${over.map((r) => `${r.route} ${kB(r.gzip)} kB`).join(', ')}`);
    process.exitCode = 1;
  }
}

try {
  main();
} catch (error) {
  log(`failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
