import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Microsoft identity platform and Microsoft Graph, speaking the parts Sparks uses:
 * `/<tenant>/oauth2/v2.0/authorize` (consents at once as the signed-in user and redirects back with a code)
 * and `/token` (authorization_code with PKCE S256, refresh_token), and under `/v1.0`: `/me/drive`,
 * `/sites?search=`, `/sites/{id}/drives`, `/drives/{id}/root/children`, `/drives/{id}/items/{id}/children`,
 * `/drives/{id}/items/{id}/content` (a 302 to a pre-authenticated download address), `/drives/{id}/root/delta`
 * (pages with `@odata.nextLink`, then `@odata.deltaLink`, on another origin when told to; 410 once the link is
 * expired), and 429 with Retry-After when told to throttle. Tokens are random strings it remembers; nothing is
 * faked on our side.
 * `/sites?search=`, `/sites/{id}`, `/sites/{id}/drives`, `/drives/{id}/root/children`, `/drives/{id}/items/{id}/children`,
 * `/me/drive/root/children`, `/drives/{id}`, `/drives/{id}/items/{id}`, `/drives/{id}/items/{id}/content` (a 302 to a pre-authenticated download address), `/drives/{id}/root/delta`
 * (pages with `@odata.nextLink`, then `@odata.deltaLink`; 410 once the link is expired), and 429 with
 * Retry-After when told to throttle. Tokens are random strings it remembers; nothing is faked on our side.
 */

export interface FileSpec {
  name: string;
  content: Buffer;
  /** Folder item id; the drive's root when absent. */
  parentId?: string;
}

interface Item {
  id: string;
  name: string;
  eTag: string;
  version: number;
  parentId: string | undefined;
  folder: boolean;
  content?: Buffer;
  deleted?: boolean;
  /** The change counter when the item last changed (for delta). */
  changedAt: number;
  /** The size Graph reports, when not the content's. */
  reportedSize?: number;
}

interface Drive {
  id: string;
  name: string;
  siteId?: string;
  items: Map<string, Item>;
  rootId: string;
}

export interface TokenRequest {
  grant_type: string;
  params: Record<string, string>;
}

export class GraphServer {
  readonly clientId = 'sparks-graph-client';
  readonly clientSecret = 'sparks-graph-secret';
  /** Lifetime the token endpoint gives access tokens, in seconds. */
  accessTtlSeconds = 3600;
  private server!: Server;
  base = '';
  private codes = new Map<string, { challenge: string; redirectUri: string; scope: string }>();
  private accessTokens = new Set<string>();
  private refreshTokens = new Set<string>();
  readonly tokenRequests: TokenRequest[] = [];
  /** Every Graph request's path and query, in order. */
  readonly graphRequests: string[] = [];
  private throttleLeft = 0;
  private throttleRetryAfter = '1';
  private counter = 0;
  private deltaTokens = new Map<string, number>();
  /** Delta tokens (by value) that answer 410 Gone. */
  private expired = new Set<string>();
  /** Where `/content` redirects to; defaults to this server's `/download/...`. */
  downloadOrigin: string | undefined;
  /** Items per delta page. */
  deltaPageSize = 2;
  /**
   * Hands out nextLinks or deltaLinks on another origin (a server that is not Graph: an SSRF attempt the
   * client must refuse); unset, they point back here.
   */
  foreignLinks: { next?: string; delta?: string } = {};
  readonly drives = new Map<string, Drive>();
  readonly sites: Array<{ id: string; name: string; displayName: string }> = [];

  /** Listens on 127.0.0.1, on `port` when given (the browser tests point the app at a known one). */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: Error) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'generalException', message: err.message } }));
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', resolve);
    });
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  get graphUrl(): string {
    return `${this.base}/v1.0`;
  }

  /** The environment that points Sparks at this server. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      MICROSOFT_CLIENT_ID: this.clientId,
      MICROSOFT_CLIENT_SECRET: this.clientSecret,
      MICROSOFT_LOGIN_URL: this.base,
      MICROSOFT_GRAPH_URL: this.graphUrl,
      INTEGRATION_TOKEN_KEY: randomBytes(32).toString('base64'),
      ...extra,
    };
  }

  private nextId(prefix: string): string {
    this.counter += 1;
    return `${prefix}${this.counter.toString(36).padStart(4, '0')}`;
  }

  addDrive(name: string, siteName?: string): Drive {
    let siteId: string | undefined;
    if (siteName) {
      siteId = `site-${this.nextId('')}`;
      this.sites.push({ id: siteId, name: siteName, displayName: siteName });
    }
    const rootId = this.nextId('root');
    const drive: Drive = { id: this.nextId('b!drive'), name, siteId, items: new Map(), rootId };
    this.drives.set(drive.id, drive);
    return drive;
  }

  private touch(item: Item): void {
    this.counter += 1;
    item.changedAt = this.counter;
    item.version += 1;
    item.eTag = `"{${item.id}},${item.version}"`;
  }

  addFolder(drive: Drive, name: string, parentId?: string): Item {
    const item: Item = {
      id: this.nextId('F'),
      name,
      eTag: '',
      version: 0,
      parentId: parentId ?? drive.rootId,
      folder: true,
      changedAt: 0,
    };
    this.touch(item);
    drive.items.set(item.id, item);
    return item;
  }

  addFile(drive: Drive, spec: FileSpec): Item {
    const item: Item = {
      id: this.nextId('I'),
      name: spec.name,
      eTag: '',
      version: 0,
      parentId: spec.parentId ?? drive.rootId,
      folder: false,
      content: spec.content,
      changedAt: 0,
    };
    this.touch(item);
    drive.items.set(item.id, item);
    return item;
  }

  changeFile(drive: Drive, itemId: string, content: Buffer): void {
    const item = drive.items.get(itemId)!;
    item.content = content;
    this.touch(item);
  }

  /** A new version under another name (e.g. no longer a PDF). */
  renameFile(drive: Drive, itemId: string, name: string): void {
    const item = drive.items.get(itemId)!;
    item.name = name;
    this.touch(item);
  }

  /** A new version that Graph reports as `size` bytes (without holding that many). */
  resizeFile(drive: Drive, itemId: string, size: number): void {
    const item = drive.items.get(itemId)!;
    item.reportedSize = size;
    this.touch(item);
  }

  deleteItem(drive: Drive, itemId: string): void {
    const item = drive.items.get(itemId)!;
    item.deleted = true;
    this.touch(item);
  }

  /** The next `count` Graph requests answer 429 with this Retry-After. */
  throttle(count: number, retryAfter = '1'): void {
    this.throttleLeft = count;
    this.throttleRetryAfter = retryAfter;
  }

  /** Every delta link handed out so far answers 410 from now on. */
  expireDeltaLinks(): void {
    for (const token of this.deltaTokens.keys()) this.expired.add(token);
  }

  private json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  private async body(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  private issue(scope: string) {
    const access = `at-${randomBytes(16).toString('hex')}`;
    const refresh = `rt-${randomBytes(16).toString('hex')}`;
    this.accessTokens.add(access);
    this.refreshTokens.add(refresh);
    return {
      token_type: 'Bearer',
      access_token: access,
      refresh_token: refresh,
      expires_in: this.accessTtlSeconds,
      scope,
    };
  }

  /** Forgets every access token it issued (as if they had all expired at Microsoft). */
  revokeAccessTokens(): void {
    this.accessTokens.clear();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    const auth = /^\/([^/]+)\/oauth2\/v2\.0\/(authorize|token)$/.exec(url.pathname);
    if (auth && auth[2] === 'authorize' && req.method === 'GET') return this.authorize(url, res);
    if (auth && auth[2] === 'token' && req.method === 'POST') return this.token(await this.body(req), res);
    const download = /^\/download\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (download && req.method === 'GET') {
      const item = this.drives.get(download[1])?.items.get(download[2]);
      if (!item?.content || item.deleted) return this.json(res, 404, { error: { code: 'itemNotFound' } });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': item.content.length });
      res.end(item.content);
      return;
    }
    if (url.pathname.startsWith('/v1.0/')) return this.graph(url, req, res);
    this.json(res, 404, { error: { code: 'notFound' } });
  }

  private authorize(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    if (q.get('client_id') !== this.clientId || q.get('response_type') !== 'code' || !redirectUri) {
      return this.json(res, 400, { error: 'invalid_request' });
    }
    if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
      return this.json(res, 400, { error: 'invalid_request', error_description: 'PKCE S256 required' });
    }
    const code = `code-${randomBytes(12).toString('hex')}`;
    this.codes.set(code, { challenge: q.get('code_challenge')!, redirectUri, scope: q.get('scope') ?? '' });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.get('state') ?? '');
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private token(raw: string, res: ServerResponse): void {
    const p = Object.fromEntries(new URLSearchParams(raw));
    this.tokenRequests.push({ grant_type: p.grant_type, params: p });
    if (p.client_id !== this.clientId || p.client_secret !== this.clientSecret) {
      return this.json(res, 401, { error: 'invalid_client' });
    }
    if (p.grant_type === 'authorization_code') {
      const grant = this.codes.get(p.code);
      this.codes.delete(p.code);
      if (!grant || grant.redirectUri !== p.redirect_uri) return this.json(res, 400, { error: 'invalid_grant' });
      const challenge = createHash('sha256')
        .update(p.code_verifier ?? '')
        .digest('base64url');
      if (challenge !== grant.challenge) {
        return this.json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      }
      return this.json(res, 200, this.issue(grant.scope));
    }
    if (p.grant_type === 'refresh_token') {
      if (!this.refreshTokens.delete(p.refresh_token)) return this.json(res, 400, { error: 'invalid_grant' });
      return this.json(res, 200, this.issue(p.scope ?? ''));
    }
    this.json(res, 400, { error: 'unsupported_grant_type' });
  }

  /** Graph's `parentReference.path`: `/drives/{id}/root:` and the folders down to the item's parent. */
  private parentPath(drive: Drive, item: Item): string {
    const names: string[] = [];
    for (let at = item.parentId; at && at !== drive.rootId; at = drive.items.get(at)?.parentId) {
      names.unshift(drive.items.get(at)?.name ?? '');
    }
    return `/drives/${drive.id}/root:${names.map((n) => `/${n}`).join('')}`;
  }

  private view(drive: Drive, item: Item) {
    const base = {
      id: item.id,
      name: item.name,
      eTag: item.eTag,
      parentReference: { driveId: drive.id, id: item.parentId, path: this.parentPath(drive, item) },
    };
    if (item.deleted) return { ...base, deleted: { state: 'deleted' } };
    return item.folder
      ? {
          ...base,
          folder: { childCount: [...drive.items.values()].filter((c) => c.parentId === item.id && !c.deleted).length },
        }
      : { ...base, size: item.reportedSize ?? item.content!.length, file: { mimeType: mimeOf(item.name) } };
  }

  private graph(url: URL, req: IncomingMessage, res: ServerResponse): void {
    this.graphRequests.push(url.pathname + url.search);
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !this.accessTokens.has(token)) {
      return this.json(res, 401, { error: { code: 'InvalidAuthenticationToken' } });
    }
    if (this.throttleLeft > 0) {
      this.throttleLeft -= 1;
      return this.json(res, 429, { error: { code: 'TooManyRequests' } }, { 'retry-after': this.throttleRetryAfter });
    }
    const path = url.pathname.slice('/v1.0'.length);
    if (path === '/me/drive') {
      const drive = [...this.drives.values()].find((d) => !d.siteId);
      return drive
        ? this.json(res, 200, { id: drive.id, name: drive.name, driveType: 'business' })
        : this.json(res, 404, {});
    }
    if (path === '/me/drive/root/children') {
      const drive = [...this.drives.values()].find((d) => !d.siteId);
      if (!drive) return this.json(res, 404, { error: { code: 'itemNotFound' } });
      const value = [...drive.items.values()]
        .filter((i) => i.parentId === drive.rootId && !i.deleted)
        .map((i) => this.view(drive, i));
      return this.json(res, 200, { value });
    }
    if (path === '/sites') {
      return this.json(res, 200, {
        value: this.sites.map((s) => ({ ...s, webUrl: `https://contoso.sharepoint.com/sites/${s.name}` })),
      });
    }
    let m = /^\/sites\/([^/]+)$/.exec(path);
    if (m) {
      const site = this.sites.find((s) => s.id === decodeURIComponent(m![1]));
      return site ? this.json(res, 200, site) : this.json(res, 404, { error: { code: 'itemNotFound' } });
    }
    m = /^\/sites\/([^/]+)\/drives$/.exec(path);
    if (m) {
      const value = [...this.drives.values()]
        .filter((d) => d.siteId === m![1])
        .map((d) => ({ id: d.id, name: d.name, driveType: 'documentLibrary' }));
      return this.json(res, 200, { value });
    }
    m = /^\/drives\/([^/]+)\/(?:root|items\/([^/]+))\/children$/.exec(path);
    if (m) {
      const drive = this.drives.get(decodeURIComponent(m[1]));
      if (!drive) return this.json(res, 404, { error: { code: 'itemNotFound' } });
      const parent = m[2] ? decodeURIComponent(m[2]) : drive.rootId;
      const value = [...drive.items.values()]
        .filter((i) => i.parentId === parent && !i.deleted)
        .map((i) => this.view(drive, i));
      return this.json(res, 200, { value });
    }
    m = /^\/drives\/([^/]+)$/.exec(path);
    if (m) {
      const drive = this.drives.get(decodeURIComponent(m[1]));
      if (!drive) return this.json(res, 404, { error: { code: 'itemNotFound' } });
      return this.json(res, 200, {
        id: drive.id,
        name: drive.name,
        driveType: drive.siteId ? 'documentLibrary' : 'business',
        ...(drive.siteId ? { sharePointIds: { siteId: drive.siteId } } : {}),
      });
    }
    m = /^\/drives\/([^/]+)\/items\/([^/]+)$/.exec(path);
    if (m) {
      const drive = this.drives.get(decodeURIComponent(m[1]));
      const item = drive?.items.get(decodeURIComponent(m[2]));
      if (!drive || !item || item.deleted) return this.json(res, 404, { error: { code: 'itemNotFound' } });
      return this.json(res, 200, this.view(drive, item));
    }
    m = /^\/drives\/([^/]+)\/items\/([^/]+)\/content$/.exec(path);
    if (m) {
      const drive = this.drives.get(decodeURIComponent(m[1]));
      const item = drive?.items.get(decodeURIComponent(m[2]));
      if (!drive || !item || item.deleted || item.folder)
        return this.json(res, 404, { error: { code: 'itemNotFound' } });
      res.writeHead(302, { location: `${this.downloadOrigin ?? this.base}/download/${drive.id}/${item.id}` });
      res.end();
      return;
    }
    m = /^\/drives\/([^/]+)\/root\/delta$/.exec(path);
    if (m) return this.delta(decodeURIComponent(m[1]), url, res);
    this.json(res, 404, { error: { code: 'itemNotFound' } });
  }

  /**
   * Delta: without a token, every item; with `token=<t>`, what changed after the token's counter. Paged by
   * `deltaPageSize` with `$skiptoken`; the last page carries the deltaLink for the next round.
   */
  private delta(driveId: string, url: URL, res: ServerResponse): void {
    const drive = this.drives.get(driveId);
    if (!drive) return this.json(res, 404, { error: { code: 'itemNotFound' } });
    const token = url.searchParams.get('token');
    if (token && (this.expired.has(token) || !this.deltaTokens.has(token))) {
      return this.json(res, 410, { error: { code: 'resyncRequired', message: 'Resync required' } });
    }
    const since = token ? this.deltaTokens.get(token)! : 0;
    const skip = Number(url.searchParams.get('$skiptoken') ?? '0');
    const changed = [...drive.items.values()]
      .filter((i) => i.changedAt > since && (since > 0 || !i.deleted))
      .sort((a, b) => a.changedAt - b.changedAt);
    const page = changed.slice(skip, skip + this.deltaPageSize).map((i) => this.view(drive, i));
    const link = new URL(`${this.graphUrl}/drives/${encodeURIComponent(driveId)}/root/delta`);
    if (skip + this.deltaPageSize < changed.length) {
      if (token) link.searchParams.set('token', token);
      link.searchParams.set('$skiptoken', String(skip + this.deltaPageSize));
      return this.json(res, 200, { value: page, '@odata.nextLink': this.linkOn(link, this.foreignLinks.next) });
    }
    const next = `d${randomBytes(8).toString('hex')}`;
    this.deltaTokens.set(next, this.counter);
    link.searchParams.set('token', next);
    this.json(res, 200, { value: page, '@odata.deltaLink': this.linkOn(link, this.foreignLinks.delta) });
  }

  private linkOn(link: URL, origin: string | undefined): string {
    return origin ? `${origin}${link.pathname}${link.search}` : link.toString();
  }
}

function mimeOf(name: string): string {
  if (/\.pdf$/i.test(name)) return 'application/pdf';
  if (/\.docx$/i.test(name)) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  return 'application/octet-stream';
}
