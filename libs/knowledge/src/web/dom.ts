import { JSDOM, VirtualConsole } from 'jsdom';

/** jsdom's complaints about a page's CSS or markup are not ours to log. */
const quiet = new VirtualConsole();

/**
 * A page or a sitemap parsed as a browser would, by jsdom (the DOM Mozilla's Readability is made to run on):
 * its scripts are not run and nothing it links to is loaded (jsdom's defaults). `read` gets the document and
 * the window is closed after it.
 */
export function withDocument<T>(
  source: string,
  read: (document: Document) => T,
  options: { url?: string; xml?: boolean } = {},
): T {
  const dom = new JSDOM(source, {
    virtualConsole: quiet,
    ...(options.url ? { url: options.url } : {}),
    ...(options.xml ? { contentType: 'text/xml' } : {}),
  });
  try {
    return read(dom.window.document);
  } finally {
    dom.window.close();
  }
}

/** Markup as an element to read (jsdom's fragment: no window of its own). */
export function fragmentOf(markup: string): Element {
  const fragment = JSDOM.fragment(`<div>${markup}</div>`);
  return fragment.firstElementChild!;
}
