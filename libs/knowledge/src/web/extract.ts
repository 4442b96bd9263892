import { Readability } from '@mozilla/readability';
import { fragmentOf, withDocument } from './dom';

/** What a web page says, for the Spark to read (issue 32 item 1). */
export interface WebPageText {
  /** The page's title as the site gives it (its `<title>`, or the article's heading). */
  title: string;
  /**
   * Its main text: headings (`#`), paragraphs, list items (`- `) and table rows (cells joined by ` | `), one per
   * line; the navigation, header, footer, forms and scripts left out.
   */
  text: string;
}

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'form', 'button', 'select']);
/** Left out of every page: what all the pages of a site repeat (Readability keeps a short page's menu). */
const CHROME = 'nav, header, footer, aside, [role="navigation"], [role="banner"], [role="contentinfo"]';
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'blockquote',
  'figure',
  'figcaption',
  'address',
  'dl',
  'dt',
  'dd',
  'details',
  'summary',
]);

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The inline text of an element, on one line. */
function inline(node: Element): string {
  return squash(node.textContent ?? '');
}

/** Writes an element's content as lines: blocks apart, list items and table rows as rows of their own. */
function write(node: Element, lines: string[], ordered = false): void {
  let text = '';
  const flush = () => {
    const line = squash(text);
    if (line) lines.push(line);
    text = '';
  };
  let index = 0;
  for (const item of Array.from(node.childNodes)) {
    if (item.nodeType === item.TEXT_NODE) {
      text += item.textContent ?? '';
      continue;
    }
    if (item.nodeType !== item.ELEMENT_NODE) continue;
    const child = item as Element;
    const tag = child.tagName.toLowerCase();
    if (SKIPPED.has(tag)) continue;
    if (tag === 'br') {
      flush();
    } else if (/^h[1-6]$/.test(tag)) {
      flush();
      const heading = inline(child);
      if (heading) lines.push(`${'#'.repeat(Number(tag[1]))} ${heading}`);
    } else if (tag === 'ul' || tag === 'ol') {
      flush();
      write(child, lines, tag === 'ol');
    } else if (tag === 'li') {
      flush();
      index += 1;
      const nested: string[] = [];
      write(child, nested);
      const [first = '', ...rest] = nested;
      if (first) lines.push(`${ordered ? `${index}.` : '-'} ${first}`, ...rest);
    } else if (tag === 'table') {
      flush();
      for (const row of Array.from(child.querySelectorAll('tr'))) {
        const cells = Array.from(row.children).map(inline);
        if (cells.some(Boolean)) lines.push(cells.join(' | '));
      }
    } else if (tag === 'pre') {
      flush();
      const pre = (child.textContent ?? '').trim();
      if (pre) lines.push(pre);
    } else if (BLOCKS.has(tag)) {
      flush();
      write(child, lines);
    } else {
      // Inline (a, strong, span…) with blocks inside it is still written block by block.
      if (child.querySelector('p, div, ul, ol, table, h1, h2, h3, h4, h5, h6')) {
        flush();
        write(child, lines);
      } else text += ` ${child.textContent ?? ''} `;
    }
  }
  flush();
}

const toText = (root: Element) => {
  const lines: string[] = [];
  write(root, lines);
  return lines.join('\n');
};

/**
 * A page's title and main text. Mozilla's Readability (Firefox's reader view) finds the main content of an
 * article-like page; for the short pages a small business's site is made of (contact, hours, prices) it may find
 * nothing or less than the page holds, so the page's body is read too, and the fuller of the two kept. Navigation,
 * header, footer and asides are taken out first, for both.
 */
export function extractPage(html: string): WebPageText {
  return withDocument(html, (document) => {
    for (const chrome of Array.from(document.querySelectorAll(CHROME))) chrome.remove();
    const pageTitle = squash(document.title);
    const fallback = document.body ? toText(document.body) : '';
    let article: ReturnType<Readability['parse']> = null;
    try {
      // Readability changes the document it reads: it comes last.
      article = new Readability(document, { charThreshold: 100 }).parse();
    } catch {
      article = null;
    }
    const main = article?.content ? toText(fragmentOf(article.content)) : '';
    // Readability's article may leave out a table or a list of prices it judged to be furniture: keep the fuller text.
    const text = main.length >= fallback.length * 0.8 ? main : fallback;
    return { title: pageTitle || squash(article?.title ?? ''), text };
  });
}

/** The links of a page, absolute, without their fragment (`#…`). */
export function pageLinks(html: string, base: string): string[] {
  return withDocument(
    html,
    (document) => {
      const links = new Set<string>();
      for (const a of Array.from(document.querySelectorAll('a[href]'))) {
        const href = a.getAttribute('href') ?? '';
        if (!href || href.startsWith('#') || /^(mailto|tel|javascript|data):/i.test(href)) continue;
        try {
          // Against the page's address, or its <base href> (jsdom's baseURI).
          const url = new URL(href, document.baseURI);
          url.hash = '';
          links.add(url.toString());
        } catch {
          // An address that does not parse is not followed.
        }
      }
      return [...links];
    },
    { url: base },
  );
}
