import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The WordPress plugin's texts: every string it translates has a Spanish translation. */
const plugin = path.join(__dirname, 'sparks-pulse');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sources(file);
    return /\.(php|js)$/.test(e.name) ? [file] : [];
  });
}

function translatable(): Set<string> {
  const found = new Set<string>();
  const call =
    /\b(?:__|_e|esc_html__|esc_html_e|esc_attr__|esc_attr_e)\(\s*(['"])((?:\\.|(?!\1).)+)\1\s*,\s*['"]sparks-pulse['"]/g;
  for (const file of sources(plugin)) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(call)) found.add(m[2].replace(/\\(['"\\])/g, '$1'));
  }
  return found;
}

function catalogue(file: string): Map<string, string> {
  const text = fs.readFileSync(file, 'utf8');
  const entries = new Map<string, string>();
  for (const m of text.matchAll(/^msgid "((?:\\.|[^"])*)"\nmsgstr "((?:\\.|[^"])*)"/gm)) {
    if (m[1]) entries.set(m[1].replace(/\\"/g, '"'), m[2].replace(/\\"/g, '"'));
  }
  return entries;
}

describe('the Pulse plugin', () => {
  it('has a Spanish translation for every string it shows, and none left over', () => {
    const wanted = translatable();
    const es = catalogue(path.join(plugin, 'languages', 'sparks-pulse-es_ES.po'));
    expect(wanted.size).toBeGreaterThan(20);
    const missing = [...wanted].filter((s) => !es.get(s));
    expect(missing).toEqual([]);
    const unused = [...es.keys()].filter((s) => !wanted.has(s));
    expect(unused).toEqual([]);
  });

  it('declares the WordPress and PHP versions it needs in the plugin header and readme.txt alike', () => {
    const header = fs.readFileSync(path.join(plugin, 'sparks-pulse.php'), 'utf8');
    const readme = fs.readFileSync(path.join(plugin, 'readme.txt'), 'utf8');
    for (const field of ['Requires at least', 'Requires PHP']) {
      const a = new RegExp(`${field}:\\s*(\\S+)`).exec(header)?.[1];
      const b = new RegExp(`${field}:\\s*(\\S+)`).exec(readme)?.[1];
      expect(a).toBeDefined();
      expect(a).toBe(b);
    }
    expect(readme).toMatch(/== External services ==/);
  });

  const php = spawnSync('php', ['-v']).status === 0;
  (php ? it : it.skip)('is valid PHP (php -l) — checked again in the WordPress tests, where PHP is installed', () => {
    for (const file of sources(plugin).filter((f) => f.endsWith('.php'))) {
      const lint = spawnSync('php', ['-l', file], { encoding: 'utf8' });
      expect(`${path.relative(plugin, file)}: ${lint.stdout.trim()}`).toMatch(/No syntax errors/);
    }
  });
});
