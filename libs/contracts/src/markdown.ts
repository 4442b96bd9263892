/**
 * Text a user controls (a Spark's name, its greeting, a document's name or words) put into the
 * markdown the assistants write. Free of zod so that the web app's tests can import it
 * (`@sparks/contracts/markdown`).
 *
 * The text must read as typed: never an image, a tag, an entity, emphasis, code, a table or a block,
 * and never a link that shows something else than the typed text. CommonMark lets any ASCII
 * punctuation be backslash-escaped and shows it as itself, so the characters that can start markup
 * are escaped:
 * - everywhere: `\` `` ` `` `*` `_` `[` `]` `<` `>` `|` `~` `&` (emphasis, code, links, images, raw
 *   HTML and `<…>` autolinks, tables, strikethrough, entities);
 * - at the start of a line: `#` `+` `-` `=` and the `.` or `)` after digits (headings, lists, setext
 *   underlines); the lines' indentation (a code block, which would show the backslashes) is dropped.
 * `(`, `)`, `!` and the rest mean nothing once `[` and `]` are escaped: they stay as they are, and so
 * the stored text stays readable.
 * An address written out in full (`https://…`, `www.…`, `ana@example.com`) still becomes a link in
 * GFM, which shows the typed address and goes there (the web keeps only safe schemes). Its `:` of
 * `://`, `.` after `www` and `@` are escaped all the same: GFM then finds the address in the text
 * once the escapes are read, where it would otherwise take the raw markdown, backslashes and all.
 * Why not a library: the rule is one line of the CommonMark spec; the small escaping packages on npm
 * escape the same characters or fewer, and none knows about line starts or GFM's addresses.
 */

const ALWAYS = new Set(['\\', '`', '*', '_', '[', ']', '<', '>', '|', '~', '&', '@']);

/** Indexes of the characters that need a backslash in `text`. */
function escapedPositions(text: string): Set<number> {
  const at = new Set<number>();
  for (let i = 0; i < text.length; i += 1) if (ALWAYS.has(text[i])) at.add(i);
  for (const m of text.matchAll(/:(?=\/\/)/g)) at.add(m.index);
  for (const m of text.matchAll(/(?<=www)\./gi)) at.add(m.index);
  for (const m of text.matchAll(/(?:^|[\r\n])(?:([#+\-=])|\d+([.)]))/g)) {
    // The marker is the match's last character: the sign itself, or the dot or parenthesis after digits.
    if (m[1] !== undefined || m[2] !== undefined) at.add(m.index + m[0].length - 1);
  }
  return at;
}

/**
 * Indentation would make a code block, which shows the escapes themselves; a browser does not show
 * the indentation of a paragraph's lines anyway.
 */
const unindent = (text: string) => text.replace(/(^|\r\n|\r|\n)[ \t]+/g, '$1');

/** `text` as markdown that shows exactly `text` (but for the indentation of its lines). */
export function escapeMarkdown(raw: string): string {
  const text = unindent(raw);
  const at = escapedPositions(text);
  let out = '';
  for (let i = 0; i < text.length; i += 1) out += at.has(i) ? `\\${text[i]}` : text[i];
  return out;
}

/** Runs of letters (with their accents) and digits: the words a search highlights. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/**
 * Sequences that look like a tag or an address (GFM makes links of addresses): shown as they are,
 * never highlighted inside.
 */
const VERBATIM =
  /<[^<>\r\n]*>|(?<![\p{L}\p{N}])(?:[a-z][a-z\d+.-]*:\/\/|www\.)\S*|[\p{L}\p{N}._+-]+@[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*/giu;

/**
 * `text` escaped as by `escapeMarkdown`, with the words `bold` picks in **bold**. A word is a whole
 * run of letters and digits of the plain text, so the asterisks never land inside a word; words
 * inside something that looks like a tag or an address are not highlighted.
 */
export function highlightMarkdown(raw: string, bold: (word: string) => boolean): string {
  const text = unindent(raw);
  const at = escapedPositions(text);
  const verbatim = [...text.matchAll(VERBATIM)].map((m) => [m.index, m.index + m[0].length] as const);
  const inVerbatim = (start: number, end: number) => verbatim.some(([s, e]) => start < e && end > s);
  const starts = new Map<number, number>();
  for (const m of text.matchAll(WORD)) {
    const end = m.index + m[0].length;
    if (!inVerbatim(m.index, end) && bold(m[0])) starts.set(m.index, end);
  }
  let out = '';
  let closeAt = -1;
  for (let i = 0; i < text.length; i += 1) {
    if (i === closeAt) out += '**';
    const end = starts.get(i);
    if (end !== undefined) {
      out += '**';
      closeAt = end;
    }
    out += at.has(i) ? `\\${text[i]}` : text[i];
  }
  if (closeAt === text.length) out += '**';
  return out;
}
