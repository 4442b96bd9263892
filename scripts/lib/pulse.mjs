// The WordPress plugin (pulse/sparks-pulse): its Spanish .mo compiled from the committed .po, and
// the zip that owners download from the deploy assistant. Both are build outputs, not committed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { mo, po } from 'gettext-parser';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PLUGIN_DIR = path.join(root, 'pulse', 'sparks-pulse');

/** Writes a .mo beside every .po of a languages folder. */
export async function compilePulseTranslations(languagesDir = path.join(PLUGIN_DIR, 'languages')) {
  for (const file of fs.readdirSync(languagesDir).filter((f) => f.endsWith('.po'))) {
    const parsed = po.parse(fs.readFileSync(path.join(languagesDir, file)));
    fs.writeFileSync(path.join(languagesDir, file.replace(/\.po$/, '.mo')), mo.compile(parsed));
  }
}

function filesOf(dir, base = '') {
  const out = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = base ? `${base}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, filesOf(path.join(dir, entry.name), rel));
    else if (!entry.name.endsWith('.mo')) out[rel] = new Uint8Array(fs.readFileSync(path.join(dir, entry.name)));
  }
  return out;
}

/** The installable zip: one top folder `sparks-pulse/`, the .mo files compiled fresh. */
export function pulseZip() {
  const files = filesOf(PLUGIN_DIR);
  for (const name of Object.keys(files).filter((f) => f.endsWith('.po'))) {
    files[name.replace(/\.po$/, '.mo')] = new Uint8Array(mo.compile(po.parse(Buffer.from(files[name]))));
  }
  const tree = Object.fromEntries(Object.entries(files).map(([name, data]) => [`sparks-pulse/${name}`, data]));
  return Buffer.from(zipSync(tree, { level: 9, mtime: new Date('2026-11-24T00:00:00Z') }));
}

// `node scripts/lib/pulse.mjs <out.zip>`: writes the zip (the web build puts it among its downloads);
// `node scripts/lib/pulse.mjs --mo <languages dir>`: compiles the .mo files of a copy of the plugin.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === '--mo') {
  await compilePulseTranslations(process.argv[3]);
} else if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? path.join(root, 'web', 'dist', 'downloads', 'sparks-pulse.zip');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, pulseZip());
  console.log(`[sparks] wrote ${path.relative(root, out)}`);
}
