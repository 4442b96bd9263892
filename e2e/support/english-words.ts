import fs from 'node:fs';
import path from 'node:path';

/**
 * English words that must not show in the Spanish interface (issue 18 item 14), and how to find them in a
 * screen's visible text.
 *
 * The English list is every word of the app's own English texts — the web's catalogues, the built-in
 * assistants' flows and engine messages, the server's errors and e-mails — so it holds the words the app
 * could leak, less the spec's own words ({@link ALLOWED}) and the words reviewed as Spanish too
 * ({@link SHARED}) (docs/decisions.md).
 */

const ROOT = path.resolve(__dirname, '..', '..');
const CATALOGUES = ['web/public/locales', 'libs/core/src/locales'];

/** The spec's own words and names that stay as they are in Spanish (docs/decisions.md, issue 18 item 14). */
const ALLOWED = new Set([
  // The product's names and the spec's words: Spark(s), Pulse, the Borrar of deletion, the DOC and TEST tags.
  'spark',
  'sparks',
  'pulse',
  'doc',
  'test',
  // Brands and formats shown as they are.
  'google',
  'microsoft',
  'sharepoint',
  'onedrive',
  'word',
  'docx',
  'wordpress',
  'whatsapp',
  'stripe',
  'pdf',
  'pdfs',
  'email',
  'e-mail',
  'ok',
  'ia',
  'url',
  'faq',
  // Keys and systems named in how-to texts (Ctrl+C, ⌘C on a Mac).
  'ctrl',
  'mac',
  // The time standard, written so in Spanish too ("hasta medianoche (UTC)").
  'utc',
  // The plans' names (docs/product.md §5: Ruby, Emerald, Zaphire) and their unit of interactions (ITx).
  'ruby',
  'emerald',
  'zaphire',
  'itx',
]);

/**
 * Words both languages' catalogues use, reviewed as Spanish too (issue 18 item 14): the product's and brands'
 * names, formats, loanwords Spanish uses as they are (chat, widget, plugin, cookies), and Spanish words spelt
 * like English ones (no, me, real, total, normal, original, local, describe, has, sale, uses). A word the
 * catalogues share that is not here fails the catalogue test: either it is English left in Spanish, or it is
 * reviewed and added.
 */
const SHARED = new Set([
  ...ALLOWED,
  'board',
  'bull',
  'chat',
  'chatbot',
  'chats',
  'cookies',
  'describe',
  'describes',
  'error',
  'has',
  'json',
  'local',
  'mb',
  // The Spanish pronoun ("no me da acceso"), spelt like the English one.
  'me',
  'no',
  'normal',
  'null',
  'ocr',
  'original',
  'panel',
  'plan',
  'plugin',
  'plugins',
  'real',
  'sale',
  'sparks-pulse',
  'total',
  'tutorial',
  'unicode',
  'uses',
  'widget',
  'worker',
  'zip',
  // Reviewed when the server's inline texts moved into the catalogues (issue 36 item 4): the word typed to delete a
  // Spark in every language ("Borrar"), Spanish words and names the English texts use too (the "Sol Bakery" and
  // "Espiga" examples, Salamanca, the "Robot" icon, the paper clip, a formal tone, euros, extra, editor), loanwords
  // Spanish uses as they are (prompt, token, shortcode), formats (ISO, UTF), and the values of the export's JSON its
  // README quotes as they are written (human, ai, action, "content").
  'action',
  'ai',
  'borrar',
  'clip',
  'content',
  'editor',
  'espiga',
  'euros',
  'extra',
  'formal',
  'human',
  'iso',
  'prompt',
  'robot',
  'salamanca',
  'shortcode',
  'sol',
  'token',
  'tokens',
  'utf',
]);

/** Every string of a catalogue but the instructions written for a language model (keys `llm…`), never shown. */
function strings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) if (!key.startsWith('llm')) strings(item, into);
}

function catalogueText(lang: 'en' | 'es'): string[] {
  const texts: string[] = [];
  for (const base of CATALOGUES) {
    const dir = path.join(ROOT, base, lang);
    for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.json')))
      strings(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), texts);
  }
  return texts;
}

/**
 * Lower-case words of letters (accents and ñ included), two letters or more; placeholders, markup, the targets of
 * markdown links (`[Planes](/billing?showPlans=true)`), file paths (`documents/files/`, `README.txt`) and extensions
 * (`.md`) left out.
 */
function wordsOf(text: string): string[] {
  const plain = text
    .replace(/\{\{[^}]*\}\}|\{[^}]*\}/g, ' ')
    .replace(/\]\([^)\s]*\)/g, '] ')
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[\w*.-]*\/[\w*./-]*|[\w*-]*\.(?:txt|md|markdown|json|zip|pdf|docx)\b/g, ' ')
    .replace(/<[^>]+>/g, ' ');
  return (plain.toLowerCase().match(/\p{L}[\p{L}'’-]*\p{L}/gu) ?? []).map((word) => word.replace(/['’].*$/, ''));
}

let english: Set<string> | undefined;

/** The app's English words that are not reviewed as Spanish too ({@link SHARED}). */
export function englishWords(): Set<string> {
  english ??= new Set(
    catalogueText('en')
      .flatMap(wordsOf)
      .filter((word) => !SHARED.has(word)),
  );
  return english;
}

/** Words of the Spanish catalogues that are English words of the app and not reviewed as Spanish: leftovers. */
export function englishInSpanishCatalogues(): { word: string; text: string }[] {
  const words = englishWords();
  return catalogueText('es').flatMap((text) =>
    wordsOf(text)
      .filter((word) => words.has(word))
      .map((word) => ({ word, text: text.slice(0, 160) })),
  );
}

/** The English words in a text, each with the line it was found in. */
export function englishIn(text: string, own: string[] = []): { word: string; line: string }[] {
  const words = englishWords();
  const ownWords = new Set(own.flatMap(wordsOf));
  const found: { word: string; line: string }[] = [];
  for (const line of text.split('\n')) {
    for (const word of wordsOf(line)) {
      if (words.has(word) && !ownWords.has(word)) found.push({ word, line: line.trim().slice(0, 160) });
    }
  }
  return found;
}

/**
 * A page script answering the body's visible text less what is marked as written in another language than Spanish
 * (`lang="en"`: the language switch's "EN (English)", each language named in itself): that text is English on
 * purpose. The marked elements are hidden while the text is read, then shown again.
 */
export const SPANISH_TEXT = `(() => {
  const foreign = [...document.body.querySelectorAll('[lang]')].filter((el) => !/^es\\b/i.test(el.getAttribute('lang') || ''));
  const shown = foreign.map((el) => el.style.display);
  for (const el of foreign) el.style.display = 'none';
  const text = document.body.innerText;
  foreign.forEach((el, i) => { el.style.display = shown[i]; });
  return text;
})()`;
