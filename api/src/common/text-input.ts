import { DomainError } from '@sparks/core';

/**
 * U+0000 (PostgreSQL text and jsonb cannot hold it) or a UTF-16 surrogate without its partner
 * (not Unicode text at all: jsonb refuses it and UTF-8 cannot encode it). Either made the database
 * fail with a 500; as input they are simply not text.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what is looked for
const BAD_CHARACTER = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasBadCharacter(text: string): boolean {
  return BAD_CHARACTER.test(text);
}

/** A field name fit to echo back: its own bad characters replaced by U+FFFD. */
export function printable(name: string): string {
  return name.replace(new RegExp(BAD_CHARACTER.source, 'g'), '\uFFFD');
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/**
 * The path (`input.text`, `items.2.name`) of the first string in `value`, as a value or as an
 * object key, that holds a bad character; undefined when every string is clean. Walks without
 * recursion, so a deeply nested JSON body cannot exhaust the stack.
 */
export function findBadText(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (hasBadCharacter(current)) return path;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: join(path, String(i)) });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>);
      for (const [key] of entries) if (hasBadCharacter(key)) return printable(join(path, key));
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push({ value: entries[i][1], path: join(path, entries[i][0]) });
      }
    }
  }
  return undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether these bytes are UTF-8 as the standard defines it (no encoded surrogates, no stray bytes). */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The bytes a URL component stands for: `%XX` escapes decoded, everything else as it is. */
function percentDecoded(component: string): Buffer {
  const parts: Buffer[] = [];
  let last = 0;
  for (const m of component.matchAll(/%([0-9a-f]{2})/gi)) {
    parts.push(Buffer.from(component.slice(last, m.index), 'utf8'), Buffer.from([parseInt(m[1], 16)]));
    last = m.index + 3;
  }
  parts.push(Buffer.from(component.slice(last), 'utf8'));
  return Buffer.concat(parts);
}

/**
 * Express decodes a query string leniently: percent-escapes that are not UTF-8 (such as `%ED%A0%80`,
 * a surrogate) silently become U+FFFD. This finds the first parameter whose raw escapes are not
 * UTF-8, so that it is refused instead of stored altered; it answers the parameter's name.
 */
export function findBadQueryEscape(url: string): string | undefined {
  const start = url.indexOf('?');
  if (start < 0) return undefined;
  for (const pair of url.slice(start + 1).split('&')) {
    if (!pair.includes('%')) continue;
    const [key = '', value = ''] = pair.split(/=(.*)/s);
    const name = percentDecoded(key);
    if (!isUtf8(name) || !isUtf8(percentDecoded(value))) return printable(name.toString('utf8'));
  }
  return undefined;
}

export function badText(field: string | undefined): DomainError {
  return DomainError.invalid('INVALID_CHARACTERS', field || undefined);
}
