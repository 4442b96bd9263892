import { Pool } from 'pg';
import { MicrosoftService } from '../../api/src/integrations/microsoft.service';
import { GraphError } from '../../libs/knowledge/src';
import { startApp, type TestApp } from './harness';
import {
  connectMicrosoft,
  consent,
  sparkOwner,
  startConnect,
  startMicrosoftStack,
  type MicrosoftStack,
  type SparkOwner,
} from './microsoft';
import type { GraphServer } from './support/graph-server';

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const APP_URL = 'http://localhost:3998';

type Owner = SparkOwner;

async function owner(t: TestApp, opts: { zaphire?: boolean; language?: 'en' | 'es' } = {}): Promise<Owner> {
  const o = await sparkOwner(t, sql, { tag: 'sharepoint', ...opts });
  if (opts.zaphire) {
    const product = (await sql.query('SELECT product_name FROM tenants WHERE user_id = $1', [o.userId])).rows[0];
    expect(product.product_name.toLowerCase()).toBe('zaphire');
  }
  return o;
}

const authorize = (t: TestApp, o: Owner, query = '') =>
  t
    .http()
    .get(`/api/v1/sparks/${o.sparkId}/integrations/microsoft/authorize${query}`)
    .set(...o.user.auth());

const connect = connectMicrosoft;

describe('document sharing without a Microsoft app configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ APP_URL });
  });
  afterAll(() => t.close());

  it('answers 503 MICROSOFT_NOT_CONFIGURED in the caller language, and says so in the Spark view', async () => {
    const o = await owner(t, { zaphire: true, language: 'es' });
    const res = await authorize(t, o).set('Accept-Language', 'es').expect(503);
    expect(res.body.errors[0].code).toBe('MICROSOFT_NOT_CONFIGURED');
    expect(res.body.errors[0].message).toMatch(/no está configurado/);
    const view = await t
      .http()
      .get(`/api/v1/sparks/${o.sparkId}/integrations`)
      .set(...o.user.auth())
      .expect(200);
    expect(view.body.data).toEqual({ configured: { microsoft: false }, connections: [] });
  });
});

describe('connecting a Spark to Microsoft 365 (against a local identity platform and Graph)', () => {
  let stack: MicrosoftStack;
  let graph: GraphServer;
  let t: TestApp;

  beforeAll(async () => {
    stack = await startMicrosoftStack({ appUrl: APP_URL });
    ({ graph, t } = stack);
  });
  afterAll(() => stack.close());

  it('refuses plans other than zaphire with 402 DOCUMENT_SHARING_PLAN', async () => {
    const o = await owner(t);
    const res = await authorize(t, o).expect(402);
    expect(res.body.errors[0].code).toBe('DOCUMENT_SHARING_PLAN');
    expect(res.body.errors[0].message).toMatch(/Zaphire/);
  });

  it('answers 404 for an unknown provider or a Spark that is not the caller’s, 400 for an unknown service', async () => {
    const o = await owner(t, { zaphire: true });
    const other = await owner(t, { zaphire: true });
    await t
      .http()
      .get(`/api/v1/sparks/${o.sparkId}/integrations/dropbox/authorize`)
      .set(...o.user.auth())
      .expect(404);
    await t
      .http()
      .get(`/api/v1/sparks/${o.sparkId}/integrations/microsoft/authorize`)
      .set(...other.user.auth())
      .expect(404);
    const bad = await authorize(t, o, '?service=gdrive').expect(400);
    expect(bad.body.errors[0].code).toBe('INVALID_PARAMS');
  });

  it('builds the authorization URL: organizations tenant, PKCE S256, offline_access and read-only scopes, a signed state', async () => {
    const o = await owner(t, { zaphire: true });
    const res = await authorize(t, o, '?service=sharepoint').expect(200);
    const { authUrl } = res.body.data as { authUrl: string };
    const url = new URL(authUrl);
    expect(url.origin + url.pathname).toBe(`${graph.base}/organizations/oauth2/v2.0/authorize`);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe(graph.clientId);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('redirect_uri')).toBe(`${APP_URL}/api/v1/integrations/microsoft/callback`);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('scope')!.split(' ').sort()).toEqual(['Files.Read.All', 'Sites.Read.All', 'offline_access']);
    expect(q.get('state')!.split('.')).toHaveLength(3);
    expect(authUrl).not.toContain(graph.clientSecret);
    // The browser binding: httpOnly, only for the callback, sent on Microsoft's top-level redirect back (Lax), for the
    // state's ten minutes; not Secure on this http APP_URL.
    const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(setCookie).toHaveLength(1);
    const attributes = setCookie[0].split(/;\s*/);
    expect(attributes[0]).toMatch(/^sparks_ms_connect=[\w-]{43}$/);
    expect(attributes).toEqual(
      expect.arrayContaining([
        'Max-Age=600',
        'Path=/api/v1/integrations/microsoft/callback',
        'HttpOnly',
        'SameSite=Lax',
      ]),
    );
    expect(attributes).not.toContain('Secure');
    expect(q.get('state')).not.toContain(attributes[0].split('=')[1]);
  });

  it('asks the least privilege per service: OneDrive only Files.Read, SharePoint Files.Read.All and Sites.Read.All', async () => {
    const o = await owner(t, { zaphire: true });
    const scopesOf = async (query: string) => {
      const { authUrl } = (await authorize(t, o, query).expect(200)).body.data as { authUrl: string };
      return new URL(authUrl).searchParams.get('scope')!.split(' ').sort();
    };
    expect(await scopesOf('?service=onedrive')).toEqual(['Files.Read', 'offline_access']);
    expect(await scopesOf('?service=sharepoint')).toEqual(['Files.Read.All', 'Sites.Read.All', 'offline_access']);
    expect(await scopesOf('')).toEqual(['Files.Read.All', 'Sites.Read.All', 'offline_access']);
  });

  it('stores the scopes a connection was granted and refreshes it with them, not with another service’s', async () => {
    const load = async (sparkId: string) =>
      (await sql.query('SELECT * FROM integration_connections WHERE spark_id = $1', [sparkId])).rows[0];
    for (const [service, granted] of [
      ['onedrive', 'offline_access Files.Read'],
      ['sharepoint', 'offline_access Files.Read.All Sites.Read.All'],
    ] as const) {
      const o = await owner(t, { zaphire: true });
      expect((await connect(t, o, service)).searchParams.get('q')).toBe('sharepoint-conected');
      const exchange = graph.tokenRequests.filter((r) => r.grant_type === 'authorization_code').at(-1)!;
      expect(exchange.params.scope).toBe(granted);
      expect(await load(o.sparkId)).toMatchObject({ service, scopes: granted });
      await sql.query(
        `UPDATE integration_connections SET expires_at = now() + interval '1 minute' WHERE spark_id = $1`,
        [o.sparkId],
      );
      const sites = await t.app
        .get(MicrosoftService)
        .graphFor(await load(o.sparkId))
        .get<{ value: unknown[] }>('/sites?search=*');
      expect(Array.isArray(sites.value)).toBe(true);
      const refresh = graph.tokenRequests.filter((r) => r.grant_type === 'refresh_token').at(-1)!;
      expect(refresh.params.scope).toBe(granted);
      expect((await load(o.sparkId)).scopes).toBe(granted);
    }
  });

  it('binds the state to the browser that asked for it: without its cookie, or with another one, nothing is stored', async () => {
    // The attacker starts a connection of their own Spark and sends the victim the authorization link; the victim
    // signs in at Microsoft and their browser, which never made the authorize call, comes back with the code.
    const attacker = await owner(t, { zaphire: true });
    const victim = await owner(t, { zaphire: true });
    const { authUrl, cookie } = await startConnect(t, attacker);
    const callback = await consent(authUrl);
    const exchanges = () => graph.tokenRequests.filter((r) => r.grant_type === 'authorization_code').length;
    const before = exchanges();
    const { cookie: victimsOwn } = await startConnect(t, victim);
    for (const sent of [undefined, victimsOwn, `sparks_ms_connect=${'A'.repeat(43)}`, `${cookie}x`]) {
      const req = t.http().get(callback.pathname + callback.search);
      const res = await (sent ? req.set('Cookie', sent) : req).expect(302);
      // As a bad state: home, no Spark named, and the cookie cleared.
      expect(res.headers.location).toBe(`${APP_URL}/`);
      expect(([] as string[]).concat(res.headers['set-cookie'] ?? []).join()).toMatch(
        /sparks_ms_connect=;.*Path=\/api\/v1\/integrations\/microsoft\/callback/,
      );
    }
    expect(exchanges()).toBe(before);
    const stored = await sql.query('SELECT 1 FROM integration_connections WHERE spark_id = ANY($1)', [
      [attacker.sparkId, victim.sparkId],
    ]);
    expect(stored.rowCount).toBe(0);
    // The browser that started it still connects with that state.
    const own = await t
      .http()
      .get(callback.pathname + callback.search)
      .set('Cookie', cookie)
      .expect(302);
    expect(new URL(own.headers.location).searchParams.get('q')).toBe('sharepoint-conected');
    expect(([] as string[]).concat(own.headers['set-cookie'] ?? []).join()).toMatch(/sparks_ms_connect=;/);
  });

  it('connects: trades the code with the PKCE verifier, stores the tokens encrypted, sends the browser back to the Spark', async () => {
    const o = await owner(t, { zaphire: true });
    const landing = await connect(t, o);
    expect(landing.origin + landing.pathname).toBe(`${APP_URL}/spark/${o.sparkId}`);
    expect(landing.searchParams.get('q')).toBe('sharepoint-conected');
    const exchange = graph.tokenRequests.filter((r) => r.grant_type === 'authorization_code').at(-1)!;
    expect(exchange.params.code_verifier).toMatch(/^[\w-]{43,128}$/);
    const row = (await sql.query('SELECT * FROM integration_connections WHERE spark_id = $1', [o.sparkId]))
      .rows[0] as Record<string, string>;
    expect(row).toMatchObject({ provider: 'microsoft', service: 'sharepoint', user_id: o.userId });
    // Encrypted at rest: neither token appears in the row, and the sealed values are not base64 of them.
    const stored = JSON.stringify(row);
    expect(stored).not.toMatch(/\bat-[0-9a-f]{32}\b|\brt-[0-9a-f]{32}\b/);
    for (const col of ['access_token_sealed', 'refresh_token_sealed']) {
      expect(row[col]).toMatch(/^v1\.[\w-]+$/);
      expect(Buffer.from(row[col].slice(3), 'base64url').toString('latin1')).not.toMatch(/at-|rt-/);
    }
    const view = await t
      .http()
      .get(`/api/v1/sparks/${o.sparkId}/integrations`)
      .set(...o.user.auth())
      .expect(200);
    expect(view.body.data).toMatchObject({
      configured: { microsoft: true },
      connections: [{ provider: 'microsoft', service: 'sharepoint', connectedAt: expect.any(String) }],
    });
    // The stored access token works against Graph.
    const ms = t.app.get(MicrosoftService);
    const conn = (await sql.query('SELECT * FROM integration_connections WHERE spark_id = $1', [o.sparkId])).rows[0];
    const drive = graph.addDrive('OneDrive');
    const me = await ms.graphFor({ ...conn, id: conn.id }).get<{ id: string }>('/me/drive');
    expect(me.id).toBe(drive.id);
  });

  it('a state works once: replaying the callback, a forged state or a denial connects nothing', async () => {
    const o = await owner(t, { zaphire: true });
    const { authUrl, cookie } = await startConnect(t, o);
    const callback = await consent(authUrl);
    const first = await t
      .http()
      .get(callback.pathname + callback.search)
      .set('Cookie', cookie)
      .expect(302);
    expect(new URL(first.headers.location).searchParams.get('q')).toBe('sharepoint-conected');
    await sql.query('DELETE FROM integration_connections WHERE spark_id = $1', [o.sparkId]);
    const replay = await t
      .http()
      .get(callback.pathname + callback.search)
      .set('Cookie', cookie)
      .expect(302);
    expect(new URL(replay.headers.location).searchParams.get('error')).toBe('sharepoint');
    // A state signed by someone else (or altered) leads home, without a Spark.
    const state = callback.searchParams.get('state')!;
    const forged = `${state.slice(0, -4)}AAAA`;
    const home = await t
      .http()
      .get(`/api/v1/integrations/microsoft/callback?code=x&state=${encodeURIComponent(forged)}`)
      .set('Cookie', cookie)
      .expect(302);
    expect(home.headers.location).toBe(`${APP_URL}/`);
    // The user said no at Microsoft.
    const again = await startConnect(t, o);
    const denied = await t
      .http()
      .get(
        `/api/v1/integrations/microsoft/callback?error=access_denied&state=${encodeURIComponent(new URL(again.authUrl).searchParams.get('state')!)}`,
      )
      .set('Cookie', again.cookie)
      .expect(302);
    expect(new URL(denied.headers.location).searchParams.get('error')).toBe('sharepoint');
    const rows = await sql.query('SELECT 1 FROM integration_connections WHERE spark_id = $1', [o.sparkId]);
    expect(rows.rowCount).toBe(0);
  });

  it('refreshes the access token before it expires, once, and keeps working with the new one', async () => {
    const o = await owner(t, { zaphire: true });
    await connect(t, o);
    graph.addDrive('OneDrive');
    const ms = t.app.get(MicrosoftService);
    const load = async () =>
      (await sql.query('SELECT * FROM integration_connections WHERE spark_id = $1', [o.sparkId])).rows[0];
    // Four minutes left: less than the five-minute lead, so the next call refreshes first.
    await sql.query(
      `UPDATE integration_connections SET expires_at = now() + interval '4 minutes' WHERE spark_id = $1`,
      [o.sparkId],
    );
    const before = await load();
    const refreshes = () => graph.tokenRequests.filter((r) => r.grant_type === 'refresh_token').length;
    const n = refreshes();
    graph.revokeAccessTokens(); // the old access token would now be refused
    const client = ms.graphFor(before);
    await Promise.all([client.get('/me/drive'), client.get('/me/drive'), client.get('/me/drive')]);
    expect(refreshes()).toBe(n + 1);
    const after = await load();
    expect(after.access_token_sealed).not.toBe(before.access_token_sealed);
    expect(after.refresh_token_sealed).not.toBe(before.refresh_token_sealed);
    expect(new Date(after.expires_at).getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
  });

  it('disconnecting deletes the stored tokens; Graph calls through the old connection stop', async () => {
    const o = await owner(t, { zaphire: true });
    await connect(t, o);
    const conn = (await sql.query('SELECT * FROM integration_connections WHERE spark_id = $1', [o.sparkId])).rows[0];
    const res = await t
      .http()
      .delete(`/api/v1/sparks/${o.sparkId}/integrations/microsoft`)
      .set(...o.user.auth())
      .expect(200);
    expect(res.body.data).toEqual({ provider: 'microsoft', disconnected: true });
    expect((await sql.query('SELECT 1 FROM integration_connections WHERE id = $1', [conn.id])).rowCount).toBe(0);
    await expect(t.app.get(MicrosoftService).graphFor(conn).get('/me/drive')).rejects.toThrow(/removed/);
    const again = await t
      .http()
      .delete(`/api/v1/sparks/${o.sparkId}/integrations/microsoft`)
      .set(...o.user.auth())
      .expect(200);
    expect(again.body.data.disconnected).toBe(false);
  });
});

describe('the Graph client: strict base URL, throttling, delta pages and 410', () => {
  let stack: MicrosoftStack;
  let graph: GraphServer;
  let t: TestApp;
  let o: Owner;
  let client: ReturnType<MicrosoftService['graphFor']>;

  beforeAll(async () => {
    stack = await startMicrosoftStack({ appUrl: APP_URL });
    ({ graph, t } = stack);
    o = await owner(t, { zaphire: true });
    await connect(t, o);
    const conn = (await sql.query('SELECT * FROM integration_connections WHERE spark_id = $1', [o.sparkId])).rows[0];
    client = t.app.get(MicrosoftService).graphFor(conn);
  });
  afterAll(() => stack.close());

  it('follows nextLink pages to the deltaLink, then sees only what changed; an expired link is 410 (resync)', async () => {
    const drive = graph.addDrive('Documents', 'Bakery');
    const a = graph.addFile(drive, { name: 'Menu.pdf', content: Buffer.from('%PDF-1.4 a') });
    graph.addFile(drive, { name: 'Hours.pdf', content: Buffer.from('%PDF-1.4 b') });
    graph.addFile(drive, { name: 'Prices.pdf', content: Buffer.from('%PDF-1.4 c') });
    const names: string[] = [];
    let deltaLink: string | undefined;
    let pages = 0;
    for await (const page of client.pages<{ name: string }>(`/drives/${drive.id}/root/delta`)) {
      pages += 1;
      names.push(...page.value.map((i) => i.name));
      deltaLink = page['@odata.deltaLink'] ?? deltaLink;
    }
    expect(pages).toBe(2);
    expect(names.sort()).toEqual(['Hours.pdf', 'Menu.pdf', 'Prices.pdf']);
    graph.changeFile(drive, a.id, Buffer.from('%PDF-1.4 a2'));
    const changed: string[] = [];
    for await (const page of client.pages<{ name: string }>(deltaLink!)) changed.push(...page.value.map((i) => i.name));
    expect(changed).toEqual(['Menu.pdf']);
    graph.expireDeltaLinks();
    const gone = client.pages(deltaLink!).next();
    await expect(gone).rejects.toMatchObject({ kind: 'resyncRequired', status: 410 });
  });

  it('waits what Retry-After says on 429 and retries; gives up as throttled when asked to wait too long', async () => {
    graph.throttle(2, '1');
    const started = Date.now();
    const sites = await client.get<{ value: unknown[] }>('/sites?search=*');
    expect(Array.isArray(sites.value)).toBe(true);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1900);
    graph.throttle(1, '3600');
    await expect(client.get('/sites?search=*')).rejects.toMatchObject({ kind: 'throttled', retryAfterMs: 3_600_000 });
  });

  it('downloads through the redirect without sending the token; refuses links and downloads off the Graph host (SSRF)', async () => {
    const drive = graph.addDrive('Docs', 'Cafe');
    const file = graph.addFile(drive, { name: 'Menu.pdf', content: Buffer.from('%PDF-1.4 menu bytes') });
    expect((await client.download(drive.id, file.id, 1024)).toString()).toBe('%PDF-1.4 menu bytes');
    await expect(client.download(drive.id, file.id, 5)).rejects.toMatchObject({ kind: 'tooLarge' });
    // A nextLink or deltaLink elsewhere: another host, another port, another path, credentials in the URL.
    const port = new URL(graph.base).port;
    for (const link of [
      `http://169.254.169.254/latest/meta-data?x=${port}`,
      `http://127.0.0.1:${Number(port) + 1}/v1.0/me/drive`,
      `${graph.base}/download/${drive.id}/${file.id}`,
      `${graph.base}/v1.0x/me/drive`,
      `http://user:pw@127.0.0.1:${port}/v1.0/me/drive`,
    ]) {
      const before = graph.graphRequests.length;
      await expect(client.pages(link).next()).rejects.toMatchObject({ kind: 'refused' });
      expect(graph.graphRequests.length).toBe(before);
    }
    // Graph redirecting a download to a host that is neither Graph nor an allowed download host.
    graph.downloadOrigin = 'http://127.0.0.2:9';
    await expect(client.download(drive.id, file.id, 1024)).rejects.toBeInstanceOf(GraphError);
    await expect(client.download(drive.id, file.id, 1024)).rejects.toMatchObject({ kind: 'refused' });
    graph.downloadOrigin = undefined;
  });
});
