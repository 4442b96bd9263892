import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { SUPPORTED_LANGUAGES } from './i18n';

/**
 * Every catalogue of the product: the web's (i18next, `{{name}}` placeholders) and the server's (api, worker and libs,
 * read through `t` of `@sparks/core`, `{name}` placeholders).
 */
const CATALOGUES = [
  { name: 'web', dir: join(__dirname, '..', 'public', 'locales') },
  { name: 'server', dir: join(__dirname, '..', '..', 'libs', 'core', 'src', 'locales') },
];

/** Dotted paths of every leaf of a catalogue: { a: { b: 'x' } } → ['a.b']. */
function leafKeys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
    leafKeys(child, prefix ? `${prefix}.${key}` : key),
  );
}

/** The value at a dotted path. */
function valueAt(catalogue: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue);
}

/** The placeholders of a text, `{name}` or `{{name}}`, sorted and without repeats. */
function placeholders(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  return [...new Set([...text.matchAll(/\{\{?\s*(\w+)\s*\}?\}/g)].map((m) => m[1]))].sort();
}

describe.each(CATALOGUES)('$name translation catalogues', ({ dir }) => {
  function readCatalogue(lng: string, file: string): unknown {
    return JSON.parse(readFileSync(join(dir, lng, file), 'utf8'));
  }

  function namespaceFiles(lng: string): string[] {
    return readdirSync(join(dir, lng))
      .filter((file) => file.endsWith('.json'))
      .sort();
  }

  it('has a folder for every supported language and nothing else', () => {
    const folders = readdirSync(dir).sort();
    expect(folders).toEqual([...SUPPORTED_LANGUAGES].sort());
  });

  it('has the same namespace files in every language', () => {
    const [reference, ...others] = SUPPORTED_LANGUAGES;
    for (const lng of others)
      expect({ lng, files: namespaceFiles(lng) }).toEqual({ lng, files: namespaceFiles(reference) });
  });

  const files = namespaceFiles('en');
  it.each(files)('%s has exactly the same keys in every language', (file) => {
    const keysByLanguage = SUPPORTED_LANGUAGES.map((lng) => ({
      lng,
      keys: new Set(leafKeys(readCatalogue(lng, file))),
    }));
    const allKeys = new Set(keysByLanguage.flatMap(({ keys }) => [...keys]));
    const missing = keysByLanguage.flatMap(({ lng, keys }) =>
      [...allKeys].filter((key) => !keys.has(key)).map((key) => `${lng}/${file}: ${key}`),
    );
    expect(missing).toEqual([]);
  });

  it.each(files)('%s has no empty translations', (file) => {
    const empty = SUPPORTED_LANGUAGES.flatMap((lng) => {
      const catalogue = readCatalogue(lng, file);
      return leafKeys(catalogue)
        .filter((key) => {
          const value = valueAt(catalogue, key);
          return typeof value !== 'string' || value.trim() === '';
        })
        .map((key) => `${lng}/${file}: ${key}`);
    });
    expect(empty).toEqual([]);
  });

  it.each(files)('%s has the same placeholders in every language', (file) => {
    const [reference, ...others] = SUPPORTED_LANGUAGES;
    const english = readCatalogue(reference, file);
    const different = others.flatMap((lng) => {
      const catalogue = readCatalogue(lng, file);
      return leafKeys(english)
        .filter((key) => placeholders(valueAt(catalogue, key)).join() !== placeholders(valueAt(english, key)).join())
        .map((key) => `${lng}/${file}: ${key}`);
    });
    expect(different).toEqual([]);
  });
});

describe('placeholders', () => {
  it("reads i18next's and the server's placeholders alike", () => {
    expect(placeholders('Hi {{name}}, {count} new for {name}')).toEqual(['count', 'name']);
    expect(placeholders('no placeholders')).toEqual([]);
  });
});

describe('leafKeys', () => {
  it('reports a key present in one catalogue only', () => {
    const en = new Set(leafKeys({ a: { b: 'x', c: 'y' } }));
    const es = new Set(leafKeys({ a: { b: 'x' } }));
    expect([...en].filter((key) => !es.has(key))).toEqual(['a.c']);
  });
});
