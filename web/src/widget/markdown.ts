import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { safeUrl } from '../chat-core/urls';

/**
 * A reply's markdown as safe HTML for the widget, with the chat's rules (docs/product.md §5): GitHub flavour, raw
 * HTML shown as text (micromark escapes it), links and images only with the allowed schemes
 * (`safeUrl`, the SPA's own list), links in a new tab, images only from the widget's own server
 * (others become links). micromark is the parser react-markdown uses in the SPA, without React.
 */
export function renderMarkdown(content: string, ownOrigin: string): DocumentFragment {
  const html = micromark(content, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  const template = document.createElement('template');
  template.innerHTML = html;
  const root = template.content;
  for (const a of Array.from(root.querySelectorAll('a'))) {
    const href = safeUrl(a.getAttribute('href') ?? '');
    if (!href) {
      const span = document.createElement('span');
      span.textContent = a.textContent;
      a.replaceWith(span);
      continue;
    }
    a.setAttribute('href', href);
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer');
  }
  for (const img of Array.from(root.querySelectorAll('img'))) {
    const src = safeUrl(img.getAttribute('src') ?? '');
    let own = false;
    try {
      own = !!src && new URL(src, ownOrigin).origin === ownOrigin;
    } catch {
      own = false;
    }
    if (own) {
      img.setAttribute('referrerpolicy', 'no-referrer');
      img.setAttribute('loading', 'lazy');
      continue;
    }
    const alt = img.getAttribute('alt') || src;
    if (!src) {
      img.replaceWith(document.createTextNode(alt ?? ''));
      continue;
    }
    const a = document.createElement('a');
    a.href = src;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    a.textContent = alt;
    img.replaceWith(a);
  }
  return root;
}
