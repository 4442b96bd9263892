import { decodePage } from './charset';
import { withDocument } from './dom';
import { pageLinks } from './extract';
import { WebFetchError, type WebFetcher } from './fetch';
import { isHtmlType } from './page';
import { readRobots, type SiteRules } from './robots';

/** A sitemap's page addresses, or the sitemaps a sitemap index names (sitemaps.org). */
export function readSitemap(xml: string): { pages: string[]; sitemaps: string[] } {
  return withDocument(
    xml,
    (doc) => {
      // Sitemaps declare the sitemaps.org namespace: elements are matched by their local name.
      const locs = (parent: string) =>
        Array.from(doc.getElementsByTagNameNS('*', 'loc'))
          .filter((loc) => loc.parentElement?.localName === parent)
          .map((loc) => (loc.textContent ?? '').trim())
          .filter(Boolean);
      return { pages: locs('url'), sitemaps: locs('sitemap') };
    },
    { xml: true },
  );
}

/** Two hosts are one site when they differ only by a leading "www.". */
const siteOf = (host: string) => host.toLowerCase().replace(/^www\./, '');

/** Addresses that are files, not pages: not read as pages of the site (a PDF is uploaded as a document). */
const NOT_A_PAGE =
  /\.(pdf|docx?|xlsx?|pptx?|zip|gz|rar|7z|jpe?g|png|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4a|avi|mov|webm|ogg|wav|css|js|json|xml|rss|atom|woff2?|ttf|eot|exe|dmg|apk)$/i;

/** The address as one page is known by: no fragment, scheme and host in lower case, no default port. */
export function pageKey(raw: string): string {
  const url = new URL(raw);
  url.hash = '';
  return url.toString();
}

export interface DiscoveredSite {
  /** The address the owner gave, as read (http(s), no fragment). */
  start: string;
  /** Where the pages were found. */
  via: 'sitemap' | 'links';
  /** The pages, at most the limit, the start page first when it is one of them. */
  pages: string[];
  /** More pages were found than the limit lets read. */
  truncated: boolean;
  /** What robots.txt said: `unreadable` (a 5xx, unreachable) lets nothing be read for now — the owner is told why. */
  robots: SiteRules['robots'];
}

export interface DiscoverOptions {
  /** The plan's page limit. */
  limit: number;
  /** At most this many pages fetched to follow their links when the site has no sitemap. */
  maxFetches?: number;
  /** At most this many sitemap files read (an index names others). */
  maxSitemaps?: number;
}

/**
 * The pages of a website (issue 32 item 1): robots.txt first — its rules for our agent are honoured and its
 * sitemaps read —, else /sitemap.xml, else the same-site links followed from the given page, breadth first. Only
 * pages of the same site (its host, with or without "www."), under the given address's path when it names one
 * (https://example.com/shop/ reads the shop), and only as many as the limit.
 */
export async function discoverSite(
  start: string,
  fetcher: WebFetcher,
  options: DiscoverOptions,
): Promise<DiscoveredSite> {
  const startUrl = fetcher.check(start);
  startUrl.hash = '';
  const origin = startUrl.origin;
  const rules = await readRobots(origin, fetcher);
  // RFC 9309: a robots.txt that cannot be read refuses everything for now; nothing else is asked of the site.
  if (rules.robots === 'unreadable')
    return { start: startUrl.toString(), via: 'links', pages: [], truncated: false, robots: rules.robots };
  const scope = startUrl.pathname.endsWith('/') ? startUrl.pathname : startUrl.pathname.replace(/[^/]*$/, '');
  const inSite = (raw: string) => {
    try {
      const url = new URL(raw);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        siteOf(url.host) === siteOf(startUrl.host) &&
        url.pathname.startsWith(scope) &&
        !NOT_A_PAGE.test(url.pathname) &&
        rules.allows(url.toString())
      );
    } catch {
      return false;
    }
  };

  const fromSitemaps = await sitemapPages(
    rules.sitemaps.length > 0 ? rules.sitemaps : [new URL('/sitemap.xml', origin).toString()],
    fetcher,
    options.maxSitemaps ?? 10,
  );
  const listed = unique(fromSitemaps.filter(inSite));
  if (listed.length > 0) {
    const first = pageKey(startUrl.toString());
    const ordered = listed.includes(first) ? [first, ...listed.filter((p) => p !== first)] : listed;
    return {
      start: startUrl.toString(),
      via: 'sitemap',
      pages: ordered.slice(0, options.limit),
      truncated: ordered.length > options.limit,
      robots: rules.robots,
    };
  }
  return followLinks(startUrl.toString(), fetcher, rules, inSite, options);
}

const unique = (urls: string[]) => {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of urls) {
    let key: string;
    try {
      key = pageKey(raw);
    } catch {
      continue;
    }
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(key);
  }
  return out;
};

/** The pages the sitemaps list, following sitemap indexes; a sitemap that cannot be read is passed over. */
async function sitemapPages(sitemaps: string[], fetcher: WebFetcher, maxSitemaps: number): Promise<string[]> {
  const queue = [...sitemaps];
  const read = new Set<string>();
  const pages: string[] = [];
  while (queue.length > 0 && read.size < maxSitemaps) {
    const next = queue.shift()!;
    if (read.has(next)) continue;
    read.add(next);
    try {
      const res = await fetcher.get(next);
      if (res.status !== 200) continue;
      const found = readSitemap(decodePage(res.body, res.contentType));
      pages.push(...found.pages);
      queue.push(...found.sitemaps);
    } catch (err) {
      // The owner's own address is refused before this; a sitemap pointing elsewhere is only passed over.
      if (!(err instanceof WebFetchError)) throw err;
    }
  }
  return pages;
}

async function followLinks(
  start: string,
  fetcher: WebFetcher,
  rules: SiteRules,
  inSite: (url: string) => boolean,
  options: DiscoverOptions,
): Promise<DiscoveredSite> {
  const maxFetches = options.maxFetches ?? options.limit;
  const pages: string[] = [];
  const seen = new Set<string>([pageKey(start)]);
  const queue = [pageKey(start)];
  let fetched = 0;
  let truncated = false;
  while (queue.length > 0) {
    if (pages.length >= options.limit || fetched >= maxFetches) {
      truncated = true;
      break;
    }
    const url = queue.shift()!;
    // robots.txt is honoured for the given page too.
    if (!rules.allows(url)) continue;
    fetched += 1;
    let res;
    try {
      res = await fetcher.get(url);
    } catch (err) {
      // The address the owner gave must be readable; a link that fails is only left out.
      if (url === pageKey(start) || !(err instanceof WebFetchError)) throw err;
      continue;
    }
    if (res.status !== 200 || !isHtmlType(res.contentType)) continue;
    // A redirect to another site is not this site's page.
    if (url !== pageKey(start) && !inSite(res.url)) continue;
    pages.push(url);
    for (const link of pageLinks(decodePage(res.body, res.contentType), res.url)) {
      if (!inSite(link)) continue;
      const key = pageKey(link);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(key);
    }
  }
  return { start, via: 'links', pages, truncated, robots: rules.robots };
}
