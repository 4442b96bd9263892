/** docs/product.md §5: the only schemes a link or an image of a reply may use; relative addresses are kept too. */
const SAFE_SCHEMES = ['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp'] as const;

const SAFE_SCHEME = new RegExp(`^(${SAFE_SCHEMES.join('|')})$`, 'i');

/**
 * The `urlTransform` of the markdown replies (links and images): the address itself when its scheme is
 * allowed or when it is relative (no scheme before the first '/', '?' or '#'), else '' — `javascript:`,
 * `data:`, `vbscript:`, `file:` and any other scheme are dropped.
 */
export function safeUrl(url: string): string {
  const value = url.trim();
  const colon = value.indexOf(':');
  const slash = value.indexOf('/');
  const question = value.indexOf('?');
  const hash = value.indexOf('#');
  const relative =
    colon === -1 ||
    (slash !== -1 && colon > slash) ||
    (question !== -1 && colon > question) ||
    (hash !== -1 && colon > hash);
  return relative || SAFE_SCHEME.test(value.slice(0, colon)) ? value : '';
}
