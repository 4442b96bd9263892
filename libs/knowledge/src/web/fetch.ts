import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import { isPublicAddress } from './address';

/**
 * Why a web address was not read (issue 32 item 3). `NOT_HTTP`: another scheme, or credentials in the address;
 * `ADDRESS_NOT_PUBLIC`: the host is, or resolves to, a private, loopback, link-local or metadata address (checked
 * on every redirect too); `TOO_MANY_REDIRECTS`; `TIMEOUT`; `TOO_LARGE`: over the page's size limit or the
 * fetcher's total; `UNREACHABLE`: DNS or connection failed.
 */
export type WebFetchErrorCode =
  'NOT_HTTP' | 'ADDRESS_NOT_PUBLIC' | 'TOO_MANY_REDIRECTS' | 'TIMEOUT' | 'TOO_LARGE' | 'UNREACHABLE';

export class WebFetchError extends Error {
  constructor(
    readonly code: WebFetchErrorCode,
    readonly url: string,
    detail?: string,
  ) {
    super(`${code}: ${url}${detail ? ` (${detail})` : ''}`);
    this.name = 'WebFetchError';
  }
}

export interface WebFetcherOptions {
  /** Private and loopback addresses allowed (KNOWLEDGE_FETCH_ALLOW_PRIVATE: tests, intranet installs). */
  allowPrivate?: boolean;
  /** Which addresses may be reached, when not the public ones (`allowPrivate`): tests name their own. */
  allowAddress?: (address: string) => boolean;
  /** Our own user agent: who reads the site, and where to learn about it. */
  userAgent: string;
  /** The whole request, redirects included. */
  timeoutMs?: number;
  /** One response's body, after decompression (a gzip bomb stops here). */
  maxBytes?: number;
  /** All the bodies this fetcher reads together (one sync). */
  maxTotalBytes?: number;
  maxRedirects?: number;
  /**
   * At least this long between two requests to the same host (a robots.txt Crawl-delay may ask for more): 100 ms,
   * at most 10 requests a second, so that a daily sync of 500 unchanged pages (conditional requests) ends within a
   * minute.
   */
  hostDelayMs?: number;
  /** Resolves a host name (tests point names at a local server); the addresses are checked all the same. */
  lookup?: (hostname: string) => Promise<LookupAddress[]>;
}

/** A conditional request: what the last read of the page said (issue 32 item 2). */
export interface Validators {
  etag?: string | null;
  lastModified?: string | null;
}

export interface WebResponse {
  /** Where the body came from, after redirects. */
  url: string;
  status: number;
  contentType: string;
  etag: string | null;
  lastModified: string | null;
  /** Empty for a 304. */
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const defaultLookup = (hostname: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** The address of a URL's host as Node connects to it ("[::1]" is "::1"). */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Reads web pages the way a polite, careful crawler does: http and https only, public addresses only — the host
 * is resolved once and the connection goes to the very address that was checked, so a name cannot turn private
 * between the check and the connection —, redirects followed by hand and each one checked again, a deadline, a
 * size limit per page and for the whole fetcher, a delay between requests to one host, and our user agent.
 * One fetcher per sync: its total and its delays are the sync's.
 */
export class WebFetcher {
  private readonly options: Required<Omit<WebFetcherOptions, 'lookup' | 'allowAddress'>> &
    Pick<WebFetcherOptions, 'lookup' | 'allowAddress'>;
  private totalBytes = 0;
  private readonly nextAt = new Map<string, number>();
  private readonly hostDelay = new Map<string, number>();

  constructor(options: WebFetcherOptions) {
    this.options = {
      allowPrivate: false,
      timeoutMs: 15_000,
      maxBytes: 2 * 1024 * 1024,
      maxTotalBytes: 200 * 1024 * 1024,
      maxRedirects: 5,
      hostDelayMs: 100,
      ...options,
    };
  }

  /** Bytes read so far by this fetcher. */
  get bytesRead(): number {
    return this.totalBytes;
  }

  /** A host asks for more time between requests (robots.txt Crawl-delay); never less than the fetcher's own. */
  slowDown(host: string, delayMs: number): void {
    this.hostDelay.set(host, Math.max(this.options.hostDelayMs, delayMs));
  }

  private allowed(address: string): boolean {
    const { allowAddress, allowPrivate } = this.options;
    if (allowAddress) return allowAddress(address);
    return allowPrivate || isPublicAddress(address);
  }

  /** Checks an address before anything is sent: its scheme, and a host written as an IP address. */
  check(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new WebFetchError('NOT_HTTP', raw);
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password)
      throw new WebFetchError('NOT_HTTP', raw);
    const host = bareHost(url);
    if (isIP(host) && !this.allowed(host)) throw new WebFetchError('ADDRESS_NOT_PUBLIC', raw);
    return url;
  }

  /** GET `raw`, following redirects; a 304 when the validators still hold. Other statuses are answered, not thrown. */
  async get(raw: string, validators: Validators = {}): Promise<WebResponse> {
    const deadline = Date.now() + this.options.timeoutMs;
    let url = this.check(raw);
    for (let hop = 0; ; hop++) {
      const res = await this.once(url, validators, deadline);
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode ?? 0) && location) {
        res.resume();
        if (hop >= this.options.maxRedirects) throw new WebFetchError('TOO_MANY_REDIRECTS', raw);
        url = this.check(new URL(location, url).toString());
        continue;
      }
      const body = res.statusCode === 304 ? Buffer.alloc(0) : await this.readBody(res, url.toString(), deadline);
      const header = (name: string) => {
        const value = res.headers[name];
        return typeof value === 'string' ? value : null;
      };
      return {
        url: url.toString(),
        status: res.statusCode ?? 0,
        contentType: header('content-type') ?? '',
        etag: header('etag'),
        lastModified: header('last-modified'),
        body,
      };
    }
  }

  private async politely(host: string): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextAt.get(host) ?? 0);
    this.nextAt.set(host, at + (this.hostDelay.get(host) ?? this.options.hostDelayMs));
    if (at > now) await sleep(at - now);
  }

  private async once(url: URL, validators: Validators, deadline: number): Promise<IncomingMessage> {
    await this.politely(url.host);
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new WebFetchError('TIMEOUT', url.toString());
    const resolve = this.options.lookup ?? defaultLookup;
    // Every address of the name must be public: a name with one private address is refused, whichever Node picks.
    const lookup: LookupFunction = (hostname, opts, callback) => {
      resolve(hostname).then(
        (addresses) => {
          const usable = addresses.filter((a) => !opts.family || a.family === opts.family);
          if (usable.length === 0) return callback(new Error(`no address for ${hostname}`), '', 0);
          if (addresses.some((a) => !this.allowed(a.address)))
            return callback(new WebFetchError('ADDRESS_NOT_PUBLIC', url.toString(), hostname), '', 0);
          if (opts.all) (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, usable);
          else callback(null, usable[0].address, usable[0].family);
        },
        (err: Error) => callback(err, '', 0),
      );
    };
    const headers: Record<string, string> = {
      'User-Agent': this.options.userAgent,
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5',
      'Accept-Encoding': 'gzip, deflate, br',
    };
    if (validators.etag) headers['If-None-Match'] = validators.etag;
    if (validators.lastModified) headers['If-Modified-Since'] = validators.lastModified;
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<IncomingMessage>((resolvePromise, reject) => {
      // Until the response starts; the body has its own deadline (`readBody`).
      const timer = setTimeout(() => req.destroy(new WebFetchError('TIMEOUT', url.toString())), remaining);
      const req = client.request(url, { method: 'GET', headers, lookup, agent: false }, (res) => {
        clearTimeout(timer);
        resolvePromise(res);
      });
      req.on('close', () => clearTimeout(timer));
      req.on('error', (err) =>
        reject(err instanceof WebFetchError ? err : new WebFetchError('UNREACHABLE', url.toString(), err.message)),
      );
      req.end();
    });
  }

  private readBody(res: IncomingMessage, url: string, deadline: number): Promise<Buffer> {
    const { maxBytes, maxTotalBytes } = this.options;
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.destroy();
      return Promise.reject(new WebFetchError('TOO_LARGE', url));
    }
    const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
    const decoded =
      encoding === 'gzip' || encoding === 'x-gzip'
        ? res.pipe(zlib.createGunzip())
        : encoding === 'deflate'
          ? res.pipe(zlib.createInflate())
          : encoding === 'br'
            ? res.pipe(zlib.createBrotliDecompress())
            : res;
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const fail = (err: WebFetchError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        res.destroy();
        if (decoded !== res) decoded.destroy();
        reject(err);
      };
      const timer = setTimeout(() => fail(new WebFetchError('TIMEOUT', url)), Math.max(0, deadline - Date.now()));
      decoded.on('data', (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        this.totalBytes += chunk.length;
        if (size > maxBytes || this.totalBytes > maxTotalBytes) return fail(new WebFetchError('TOO_LARGE', url));
        chunks.push(chunk);
      });
      decoded.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(Buffer.concat(chunks));
      });
      // The server closed before the end of the body.
      res.on('close', () => {
        if (!res.complete) fail(new WebFetchError('UNREACHABLE', url, 'cut short'));
      });
      decoded.on('error', (err: Error) => fail(new WebFetchError('UNREACHABLE', url, err.message)));
      res.on('error', (err: Error) => fail(new WebFetchError('UNREACHABLE', url, err.message)));
    });
  }
}
