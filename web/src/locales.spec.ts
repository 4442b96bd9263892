import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { SUPPORTED_LANGUAGES } from './i18n';

const LOCALES_DIR = join(__dirname, '..', 'public', 'locales');

/** Dotted paths of every leaf of a catalogue: { a: { b: 'x' } } → ['a.b']. */
function leafKeys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
    leafKeys(child, prefix ? `${prefix}.${key}` : key),
  );
}

function readCatalogue(lng: string, file: string): unknown {
  return JSON.parse(readFileSync(join(LOCALES_DIR, lng, file), 'utf8'));
}

function namespaceFiles(lng: string): string[] {
  return readdirSync(join(LOCALES_DIR, lng))
    .filter((file) => file.endsWith('.json'))
    .sort();
}

describe('translation catalogues', () => {
  it('has a folder for every supported language and nothing else', () => {
    const folders = readdirSync(LOCALES_DIR).sort();
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
          const value = key
            .split('.')
            .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue);
          return typeof value !== 'string' || value.trim() === '';
        })
        .map((key) => `${lng}/${file}: ${key}`);
    });
    expect(empty).toEqual([]);
  });
});

describe('leafKeys', () => {
  it('reports a key present in one catalogue only', () => {
    const en = new Set(leafKeys({ a: { b: 'x', c: 'y' } }));
    const es = new Set(leafKeys({ a: { b: 'x' } }));
    expect([...en].filter((key) => !es.has(key))).toEqual(['a.c']);
  });
});
