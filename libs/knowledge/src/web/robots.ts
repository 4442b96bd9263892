import robotsParser from 'robots-parser';
import { decodePage } from './charset';
import { WebFetchError, type WebFetcher } from './fetch';

/** Our product token in robots.txt groups ("User-agent: SparksBot"). */
export const ROBOTS_AGENT = 'SparksBot';

/** At most this long between requests, whatever a robots.txt Crawl-delay asks (a sync must end). */
const MAX_CRAWL_DELAY_MS = 10_000;

export interface SiteRules {
  /** Whether robots.txt lets us read this address. */
  allows(url: string): boolean;
  /** The sitemaps robots.txt names. */
  sitemaps: string[];
  /** What was found at /robots.txt: none (a 4xx), rules, or nothing readable (everything refused for now). */
  robots: 'none' | 'read' | 'unreadable';
}

/**
 * A site's robots.txt, as RFC 9309 reads it: none (a 4xx) allows everything; one that cannot be read (a 5xx, or
 * the site unreachable) allows nothing for now; otherwise its rules for our agent (or `*`), its sitemaps and its
 * Crawl-delay, which the fetcher then keeps for that host. Refusals of the fetcher itself (a private address) are
 * thrown: they are the owner's to hear about, not robots.txt's.
 */
export async function readRobots(origin: string, fetcher: WebFetcher): Promise<SiteRules> {
  const robotsUrl = new URL('/robots.txt', origin).toString();
  let status: number;
  let text = '';
  try {
    const res = await fetcher.get(robotsUrl);
    status = res.status;
    text = decodePage(res.body, res.contentType);
  } catch (err) {
    if (err instanceof WebFetchError && (err.code === 'NOT_HTTP' || err.code === 'ADDRESS_NOT_PUBLIC')) throw err;
    status = 503;
  }
  if (status >= 400 && status < 500) return { allows: () => true, sitemaps: [], robots: 'none' };
  if (status >= 500 || status < 200 || status >= 300)
    return { allows: () => false, sitemaps: [], robots: 'unreadable' };
  const robots = robotsParser(robotsUrl, text);
  const delay = robots.getCrawlDelay(ROBOTS_AGENT);
  if (delay !== undefined && delay > 0)
    fetcher.slowDown(new URL(origin).host, Math.min(MAX_CRAWL_DELAY_MS, delay * 1000));
  return {
    allows: (url) => robots.isAllowed(url, ROBOTS_AGENT) !== false,
    sitemaps: robots.getSitemaps(),
    robots: 'read',
  };
}
