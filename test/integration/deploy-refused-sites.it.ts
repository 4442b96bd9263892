import { Pool } from 'pg';
import { startApp, type TestApp } from './harness';
import { deployOwner, deploymentPath, publishOn, widgetPath, type DeployOwner } from './support/deploy';

/**
 * The sites a published Spark's widget was refused on (issue 34, item 7): a page of a site not on the allow-list
 * asks for the widget's look and gets 403; its owner sees that site on the deployment's view (`refusedSites`) and may
 * allow it, after which the page gets the widget. Only the config request of a live deployment is noted, only a
 * well-formed origin, at most five of them, and nothing of it reaches the allow-list by itself or another owner.
 */
const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const SHOP = 'https://shop.example';
const WWW = 'https://www.shop.example';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

type Owner = DeployOwner;

const owner = (tag: string) => deployOwner(t, sql, { tag });
const dep = deploymentPath;
const w = widgetPath;

async function view(o: Owner): Promise<{ refusedSites: Array<{ origin: string; lastTriedAt: string }> }> {
  return (
    await t
      .http()
      .get(dep(o))
      .set(...o.user.auth())
      .expect(200)
  ).body.data;
}

const publish = (o: Owner) => publishOn(t, o, SHOP);

describe('deploy: the sites a widget was refused on', () => {
  it('shows a refused site to its owner, who allows it; then the page gets the widget', async () => {
    const o = await owner('refused');
    const token = await publish(o);
    expect((await view(o)).refusedSites).toEqual([]);

    await t
      .http()
      .get(`${w(token)}/config`)
      .set('Origin', WWW)
      .expect(403);
    const refused = (await view(o)).refusedSites;
    expect(refused.map((r) => r.origin)).toEqual([WWW]);
    expect(Date.now() - Date.parse(refused[0].lastTriedAt)).toBeLessThan(60_000);
    // The allowed site is never among them, and nothing joined the allow-list.
    await t
      .http()
      .get(`${w(token)}/config`)
      .set('Origin', SHOP)
      .expect(200);
    const before = await t
      .http()
      .get(dep(o))
      .set(...o.user.auth())
      .expect(200);
    expect(before.body.data.origins.map((x: { origin: string }) => x.origin)).toEqual([SHOP]);

    await t
      .http()
      .post(`${dep(o)}/origins`)
      .set(...o.user.auth())
      .send({ origin: WWW })
      .expect(200);
    expect((await view(o)).refusedSites).toEqual([]);
    await t
      .http()
      .get(`${w(token)}/config`)
      .set('Origin', WWW)
      .expect(200);
  });

  it('notes only the config request of a live deployment, only well-formed origins, the last five', async () => {
    const o = await owner('refused-bounds');
    const token = await publish(o);
    // Other routes, a malformed origin, no origin: nothing noted.
    await t
      .http()
      .post(`${w(token)}/visitors`)
      .set('Origin', 'https://visitors.example')
      .send({})
      .expect(403);
    await t
      .http()
      .get(`${w(token)}/config`)
      .set('Origin', 'https://bad.example/path?x=1')
      .expect(403);
    await t
      .http()
      .get(`${w(token)}/config`)
      .set('Origin', 'javascript:alert(1)')
      .expect(403);
    await t
      .http()
      .get(`${w(token)}/config`)
      .expect(403);
    expect((await view(o)).refusedSites).toEqual([]);

    for (let i = 1; i <= 7; i++)
      await t
        .http()
        .get(`${w(token)}/config`)
        .set('Origin', `https://site${i}.example`)
        .expect(403);
    expect((await view(o)).refusedSites.map((r) => r.origin)).toEqual([
      'https://site7.example',
      'https://site6.example',
      'https://site5.example',
      'https://site4.example',
      'https://site3.example',
    ]);

    // Unpublished: none shown.
    await t
      .http()
      .delete(dep(o))
      .set(...o.user.auth())
      .expect(200);
    expect((await view(o)).refusedSites).toEqual([]);
  });

  it("one owner's refused sites are not another's", async () => {
    const [a, b] = [await owner('refused-a'), await owner('refused-b')];
    const ta = await publish(a);
    await publish(b);
    await t
      .http()
      .get(`${w(ta)}/config`)
      .set('Origin', WWW)
      .expect(403);
    expect((await view(a)).refusedSites.map((r) => r.origin)).toEqual([WWW]);
    expect((await view(b)).refusedSites).toEqual([]);
  });
});
