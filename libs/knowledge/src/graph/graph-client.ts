/**
 * A small Microsoft Graph client over fetch with a strict base URL (docs/decisions.md, "Document sharing:
 * Microsoft Graph with plain fetch"). Everything it requests is under the configured Graph base
 * (`MICROSOFT_GRAPH_URL`): a path is joined to it, and an absolute URL Graph gave back (`@odata.nextLink`,
 * `@odata.deltaLink`) is followed only when it is under that same base. File bytes are fetched without the
 * access token from the address Graph redirects to, which must be the Graph host itself or a host under
 * one of the allowed download domains (SharePoint's). Anything else is refused before a byte is sent (SSRF).
 */

export type GraphErrorKind =
  /** A URL outside the Graph base or the download hosts. */
  | 'refused'
  /** 401/403: the token does not (or no longer) give access. */
  | 'unauthorized'
  /** 404 */
  | 'notFound'
  /** 410 on a delta query: the delta link expired, start again from scratch. */
  | 'resyncRequired'
  /** 429 or 503 still answered after the retries, or a Retry-After longer than we wait. */
  | 'throttled'
  /** A file larger than the limit given. */
  | 'tooLarge'
  /** Network, timeout, 5xx, an answer that is not what Graph answers. */
  | 'failed';

export class GraphError extends Error {
  constructor(
    readonly kind: GraphErrorKind,
    message: string,
    readonly status?: number,
    /** For `throttled`: how long Graph asked to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface GraphClientOptions {
  /** `https://graph.microsoft.com/v1.0` (no trailing slash). */
  baseUrl: string;
  accessToken: () => Promise<string>;
  /** Host suffixes file downloads may be redirected to besides the Graph host (`sharepoint.com`). */
  downloadHosts?: string[];
  timeoutMs?: number;
  /** Retries of a 429/503 answer, waiting what Retry-After says (default 3). */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: `throttled` is thrown with it (default 30 s). */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface DriveItem {
  id: string;
  name: string;
  eTag?: string;
  size?: number;
  file?: { mimeType?: string };
  folder?: { childCount?: number };
  deleted?: { state?: string };
  parentReference?: { driveId?: string; id?: string; path?: string };
  webUrl?: string;
}

export interface GraphPage<T> {
  value: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

const sleepFor = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Retry-After in seconds (Graph's form) or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export class GraphClient {
  private readonly base: URL;
  private readonly basePath: string;

  constructor(private readonly o: GraphClientOptions) {
    this.base = new URL(o.baseUrl);
    this.basePath = this.base.pathname.replace(/\/+$/, '');
  }

  /** The URL for a Graph path (`/me/drive`) or a link Graph gave back; throws `refused` outside the base. */
  resolve(pathOrUrl: string): URL {
    const url = /^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)
      ? new URL(pathOrUrl)
      : new URL(`${this.base.origin}${this.basePath}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`);
    const path = url.pathname;
    const under = path === this.basePath || path.startsWith(`${this.basePath}/`);
    if (url.origin !== this.base.origin || !under || url.username || url.password) {
      throw new GraphError('refused', `refused a Graph URL outside ${this.base.origin}${this.basePath}: ${url.origin}`);
    }
    return url;
  }

  /** Whether a download address may be fetched: the Graph origin, or https on an allowed host suffix. */
  downloadAllowed(url: URL): boolean {
    if (url.username || url.password) return false;
    if (url.origin === this.base.origin) return true;
    if (url.protocol !== 'https:') return false;
    const host = url.hostname.toLowerCase();
    return (this.o.downloadHosts ?? []).some((suffix) => {
      const s = suffix.toLowerCase().replace(/^\.+/, '');
      return s !== '' && (host === s || host.endsWith(`.${s}`));
    });
  }

  async get<T>(pathOrUrl: string): Promise<T> {
    const res = await this.send(this.resolve(pathOrUrl), true, 'error');
    try {
      return (await res.json()) as T;
    } catch {
      throw new GraphError('failed', 'Graph answered something that is not JSON', res.status);
    }
  }

  /** Every page of a collection, following `@odata.nextLink` (each checked against the base). */
  async *pages<T>(pathOrUrl: string): AsyncGenerator<GraphPage<T>> {
    let next: string | undefined = pathOrUrl;
    while (next) {
      const page: GraphPage<T> = await this.get<GraphPage<T>>(next);
      if (!Array.isArray(page.value)) throw new GraphError('failed', 'a Graph page without value');
      yield page;
      next = page['@odata.nextLink'];
    }
  }

  /**
   * A drive item's bytes, at most `maxBytes` (`tooLarge` past it, while reading). Graph answers `/content` with
   * a redirect to a pre-authenticated address: it is followed by hand, checked, and sent no token.
   */
  async download(driveId: string, itemId: string, maxBytes: number): Promise<Buffer> {
    const first = await this.send(
      this.resolve(`/drives/${encodeURIComponent(driveId)}/items/${encodeURIComponent(itemId)}/content`),
      true,
      'manual',
    );
    let res = first;
    for (let hops = 0; res.status >= 300 && res.status < 400; hops += 1) {
      const location = res.headers.get('location');
      await res.body?.cancel();
      if (!location || hops >= 3) throw new GraphError('failed', 'a download redirect without a usable Location');
      const target = new URL(location, res.url || this.base);
      if (!this.downloadAllowed(target)) {
        throw new GraphError(
          'refused',
          `refused a download address outside Graph and the allowed hosts: ${target.origin}`,
        );
      }
      res = await this.send(target, target.origin === this.base.origin, 'manual');
    }
    return readCapped(res, maxBytes);
  }

  private async send(url: URL, withToken: boolean, redirect: 'error' | 'manual'): Promise<Response> {
    const retries = this.o.maxRetries ?? 3;
    const maxWait = this.o.maxWaitMs ?? 30_000;
    for (let attempt = 0; ; attempt += 1) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (withToken) headers.authorization = `Bearer ${await this.o.accessToken()}`;
      let res: Response;
      try {
        res = await fetch(url, { headers, redirect, signal: AbortSignal.timeout(this.o.timeoutMs ?? 30_000) });
      } catch (err) {
        throw new GraphError('failed', `Graph unreachable: ${(err as Error).message}`);
      }
      if (res.ok || (redirect === 'manual' && res.status >= 300 && res.status < 400)) return res;
      await res.body?.cancel().catch(() => undefined);
      if (res.status === 429 || res.status === 503) {
        const wait = retryAfterMs(res.headers.get('retry-after')) ?? 2 ** attempt * 1000;
        if (attempt >= retries || wait > maxWait) {
          throw new GraphError('throttled', `Graph throttled the request (${res.status})`, res.status, wait);
        }
        await (this.o.sleep ?? sleepFor)(wait);
        continue;
      }
      if (res.status === 401 || res.status === 403)
        throw new GraphError('unauthorized', `Graph refused access (${res.status})`, res.status);
      if (res.status === 404) throw new GraphError('notFound', 'Graph found no such item', 404);
      if (res.status === 410) throw new GraphError('resyncRequired', 'the delta link expired (410)', 410);
      throw new GraphError('failed', `Graph answered ${res.status}`, res.status);
    }
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new GraphError('tooLarge', `the file is larger than ${maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  if (!res.body) return Buffer.alloc(0);
  // Leaving the loop early (too large) cancels the stream.
  for await (const value of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += value.byteLength;
    if (total > maxBytes) throw new GraphError('tooLarge', `the file is larger than ${maxBytes} bytes`);
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}
