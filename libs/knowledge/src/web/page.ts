import { createHash } from 'node:crypto';
import { decodePage } from './charset';
import { extractPage } from './extract';
import type { Validators, WebFetcher } from './fetch';

/** What the last read of a page kept, to read it again only when it changed (issue 32 item 2). */
export interface PageState extends Validators {
  /** The hash of the text read (title and main text). */
  hash?: string | null;
  /** The hash of the page's bytes as served: the same bytes are not read again (reading costs ~0.1 s a page). */
  bodyHash?: string | null;
}

export type PageReading =
  /** The server said 304, or the text is the same as last time (new validators kept). */
  | { kind: 'unchanged'; etag: string | null; lastModified: string | null; bodyHash?: string }
  /** 404 or 410: the page was removed. */
  | { kind: 'gone'; status: number }
  /** Anything else the page could not give now (a 5xx, a redirect elsewhere, not a web page, no text). */
  | { kind: 'failed'; status: number; reason: 'STATUS' | 'NOT_A_PAGE' | 'EMPTY' }
  | {
      kind: 'read';
      url: string;
      title: string;
      text: string;
      hash: string;
      bodyHash: string;
      etag: string | null;
      lastModified: string | null;
    };

/** A web page's Content-Type: HTML or XHTML. */
export const isHtmlType = (contentType: string) => /^(text\/html|application\/xhtml\+xml)\b/i.test(contentType.trim());
const PLAIN = /^text\/plain\b/i;

/** The hash a page's text is known by: the same title and text give the same hash. */
export const pageHash = (title: string, text: string) =>
  createHash('sha256').update(title).update('\n\n').update(text).digest('hex');

/**
 * Reads one page of a website: a conditional request with what the last read kept (ETag, Last-Modified), then
 * its title and main text, and a hash that tells whether the text changed even when the server cannot say.
 * Errors of the fetcher (a private address, a timeout, a page too large) are thrown.
 */
export async function readPage(url: string, fetcher: WebFetcher, previous: PageState = {}): Promise<PageReading> {
  const res = await fetcher.get(url, previous);
  if (res.status === 304)
    return {
      kind: 'unchanged',
      etag: res.etag ?? previous.etag ?? null,
      lastModified: res.lastModified ?? previous.lastModified ?? null,
    };
  if (res.status === 404 || res.status === 410) return { kind: 'gone', status: res.status };
  if (res.status !== 200) return { kind: 'failed', status: res.status, reason: 'STATUS' };
  const bodyHash = createHash('sha256').update(res.body).digest('hex');
  if (previous.bodyHash && previous.bodyHash === bodyHash)
    return { kind: 'unchanged', etag: res.etag, lastModified: res.lastModified, bodyHash };
  const contentType = res.contentType.trim();
  let title: string;
  let text: string;
  if (isHtmlType(contentType)) ({ title, text } = extractPage(decodePage(res.body, contentType)));
  else if (PLAIN.test(contentType)) {
    title = '';
    text = decodePage(res.body, contentType).trim();
  } else return { kind: 'failed', status: res.status, reason: 'NOT_A_PAGE' };
  if (!text) return { kind: 'failed', status: res.status, reason: 'EMPTY' };
  const hash = pageHash(title, text);
  if (previous.hash && previous.hash === hash)
    return { kind: 'unchanged', etag: res.etag, lastModified: res.lastModified, bodyHash };
  return { kind: 'read', url: res.url, title, text, hash, bodyHash, etag: res.etag, lastModified: res.lastModified };
}

/** One page's outcome in a batch: what `readPage` answered, or the fetcher's refusal (one page does not stop the rest). */
export type BatchReading = { url: string } & (PageReading | { kind: 'error'; error: unknown });

/**
 * Reads pages `concurrency` at a time (a few connections, the fetcher's per-host delay still spacing the
 * requests), each with what its last read kept. Answers in the order given.
 */
export async function readPages(
  pages: Array<{ url: string; previous?: PageState }>,
  fetcher: WebFetcher,
  concurrency = 4,
): Promise<BatchReading[]> {
  const out = new Array<BatchReading>(pages.length);
  let next = 0;
  const lane = async () => {
    while (next < pages.length) {
      const index = next++;
      const { url, previous } = pages[index];
      try {
        out[index] = { url, ...(await readPage(url, fetcher, previous)) };
      } catch (error) {
        out[index] = { url, kind: 'error', error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, pages.length)) }, lane));
  return out;
}
