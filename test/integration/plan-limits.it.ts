import { BillingRepository, createDb, type DbHandle } from '@sparks/db';
import { PlanGates } from '@sparks/domain';
import { Pool } from 'pg';
import { readEvents } from './fixtures/sse';
import { GUIDE_PAGES, makePdf } from './fixtures/pdfs';
import { userIdOf } from './fixtures/knowledge';
import { buyPlan } from './factories';
import { createUser, startApp, type SignedUser, type TestApp } from './harness';

/**
 * The per-plan limits of issue 15 (docs/product.md §6, §9), read from the tenant's plan in the
 * catalogue: Sparks, documents per Spark, Sparks published at once, and the document-sharing gate.
 * Each is refused on the server with its own code and a message in the user's language, and the
 * counted ones are exact under concurrency.
 */

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

let t: TestApp;
let handle: DbHandle;
beforeAll(async () => {
  t = await startApp();
  handle = createDb(process.env.DATABASE_URL!, 2);
});
afterAll(async () => {
  await t.close();
  await handle.close();
});

interface Owner {
  user: SignedUser;
  userId: string;
  customerId: string;
}

async function owner(language: 'en' | 'es'): Promise<Owner> {
  const user = await createUser(t, { language, tag: 'limits' });
  const userId = await userIdOf(sql, user.username);
  const { customer_id } = (await sql.query('SELECT customer_id FROM tenants WHERE user_id = $1', [userId])).rows[0];
  return { user, userId, customerId: customer_id as string };
}

/** Buys a plan on the local provider (the same fulfilment as a webhook). */
async function buy(o: Owner, priceId: string): Promise<void> {
  await buyPlan(t, o.user, o.customerId, priceId);
}

const planLimit = async (slug: string, column: 'limit_sparks' | 'limit_documents' | 'limit_deployments') =>
  Number((await sql.query(`SELECT ${column} AS n FROM plans WHERE slug = $1`, [slug])).rows[0].n);

const createSpark = (o: Owner, name = 'Shop') =>
  t
    .http()
    .post('/api/v1/sparks')
    .set(...o.user.auth())
    .send({ name });

const sparkCount = async (o: Owner) =>
  Number((await sql.query('SELECT count(*)::int AS n FROM sparks WHERE user_id = $1', [o.userId])).rows[0].n);

async function sparksUpTo(o: Owner, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = (await sparkCount(o)) + 1; i <= n; i++)
    ids.push((await createSpark(o, `Spark ${i}`).expect(201)).body.data._id);
  return ids;
}

describe('Sparks per plan', () => {
  it('10 parallel creates at the limit minus one: exactly one is created, 9 × 402 SPARK_LIMIT (twice)', async () => {
    for (let round = 0; round < 2; round++) {
      const o = await owner('en');
      const limit = await planLimit('free', 'limit_sparks');
      await sparksUpTo(o, limit - 1);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => createSpark(o, `Race ${i}`)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, ...Array<number>(9).fill(402)]);
      for (const refused of results.filter((r) => r.status === 402)) {
        expect(refused.body.errors).toEqual([
          {
            code: 'SPARK_LIMIT',
            message: `Your plan allows up to ${limit} Sparks. Delete one or upgrade your plan to create another.`,
          },
        ]);
      }
      expect(await sparkCount(o)).toBe(limit);
    }
  });

  it('answers in Spanish, frees a place when one is deleted, and follows the plan bought (Emerald)', async () => {
    const o = await owner('es');
    const free = await planLimit('free', 'limit_sparks');
    const ids = await sparksUpTo(o, free);
    const refused = await createSpark(o).expect(402);
    expect(refused.body.errors[0]).toEqual({
      code: 'SPARK_LIMIT',
      message: `Tu plan permite hasta ${free} Sparks. Borra alguno o mejora tu plan para crear otro.`,
    });
    await t
      .http()
      .delete(`/api/v1/sparks/${ids[0]}`)
      .set(...o.user.auth())
      .expect(200);
    await createSpark(o).expect(201);
    await createSpark(o).expect(402);

    await buy(o, 'price_emeral_month');
    const emerald = await planLimit('emeral', 'limit_sparks');
    expect(emerald).toBeGreaterThan(free);
    await sparksUpTo(o, emerald);
    await createSpark(o).expect(402);
    expect(await sparkCount(o)).toBe(emerald);
  });

  it('the new-Spark assistant says the limit in the user’s language instead of failing, and creates nothing', async () => {
    const o = await owner('es');
    await sparksUpTo(o, await planLimit('free', 'limit_sparks'));
    const base = await t.url();
    const say = async (text: string, sessionId?: string) => {
      const params = new URLSearchParams({ 'input.text': text, ...(sessionId ? { sessionId } : {}) });
      const res = await fetch(`${base}/api/v1/spark-sys/new-spark/chat?${params.toString()}`, {
        headers: { Authorization: `Bearer ${o.user.access}` },
      });
      expect(res.status).toBe(200);
      const events = await readEvents(res);
      const done = events.at(-1)!;
      expect(done.type).toBe('done');
      return {
        sessionId: events[0].sessionId as string,
        replies: done.messages as Array<{ type: string; data: Record<string, unknown> }>,
      };
    };
    const before = await sparkCount(o);
    const s = await say('inicio');
    await say('Panadería Lucía', s.sessionId);
    await say('Pan artesano y bollería en el centro de Sevilla', s.sessionId);
    await say('Vender productos', s.sessionId);
    const last = await say('español', s.sessionId);
    const texts = last.replies.filter((m) => m.type === 'ai').map((m) => m.data.content);
    expect(texts).toContain(
      `Tu plan permite hasta ${before} Sparks y ya los tienes. Borra alguno desde la barra lateral o mejora tu plan, y luego escríbeme de nuevo para crearlo.`,
    );
    const buttons = last.replies.find((m) => m.type === 'action' && m.data.type === 'buttons')?.data.buttons;
    expect(buttons).toEqual([{ label: 'Ver los planes', goto: '/billing?showPlans=true' }]);
    expect(last.replies.some((m) => m.data.type === 'error')).toBe(false);
    expect(await sparkCount(o)).toBe(before);
  });
});

describe('documents per Spark, by plan', () => {
  const upload = (o: Owner, sparkId: string, file: Buffer, filename: string) =>
    t
      .http()
      .post('/api/v1/bucket')
      .set(...o.user.auth())
      .field('sparkId', sparkId)
      .attach('file', file, { filename, contentType: 'application/pdf' });

  /** Fills the Spark with `n` documents (rows of read files: what counts is how many there are). */
  async function fill(o: Owner, sparkId: string, n: number) {
    await sql.query(
      `INSERT INTO documents (id, spark_id, user_id, name, storage_key, size, sha256, status)
       SELECT gen_random_uuid(), $1, $2, 'd' || i || '.pdf', 'test/' || gen_random_uuid(), 1, md5(random()::text), 'completed'
       FROM generate_series(1, $3::int) AS i`,
      [sparkId, o.userId, n],
    );
  }

  it('the free plan’s number refuses with the dialog’s two texts in Spanish; Emerald’s number lets more in', async () => {
    const o = await owner('es');
    const sparkId = (await createSpark(o).expect(201)).body.data._id as string;
    const free = await planLimit('free', 'limit_documents');
    await fill(o, sparkId, free);
    const pdf = await makePdf([GUIDE_PAGES[0]]);
    const refused = await upload(o, sparkId, pdf, 'guia.pdf').expect(402);
    expect(refused.body.errors).toEqual([
      { code: 'DOCUMENT_LIMIT', message: '¡Límite de documentos alcanzado!' },
      {
        code: 'DOCUMENT_LIMIT_DETAIL',
        message: 'Por el momento, no puedes subir más documentos. ¿Quieres mejorar tu plan?',
      },
    ]);

    await buy(o, 'price_emeral_month');
    const emerald = await planLimit('emeral', 'limit_documents');
    expect(emerald).toBeGreaterThan(free);
    await upload(o, sparkId, pdf, 'guia.pdf').expect(201);
    await fill(o, sparkId, emerald - free - 1);
    const past = await upload(o, sparkId, await makePdf([GUIDE_PAGES[1]]), 'otra.pdf').expect(402);
    expect(past.body.errors[0].code).toBe('DOCUMENT_LIMIT');
    const n = await sql.query('SELECT count(*)::int AS n FROM documents WHERE spark_id = $1', [sparkId]);
    expect(n.rows[0].n).toBe(emerald);
  });
});

describe('Sparks published at once, by plan', () => {
  const publish = (o: Owner, sparkId: string) =>
    t
      .http()
      .post(`/api/v1/sparks/${sparkId}/deployment`)
      .set(...o.user.auth())
      .send({});

  const message = (language: 'en' | 'es', limit: number) =>
    language === 'en'
      ? `All the published Sparks your plan allows (${limit}) are in use. Unpublish one or upgrade your plan.`
      : `Ya están en uso todos los Sparks publicados que permite tu plan (${limit}). Despublica alguno o mejora tu plan.`;
  const none = (language: 'en' | 'es') =>
    language === 'en'
      ? 'Your plan allows 0 published Sparks. Choose a plan to publish one.'
      : 'Tu plan permite 0 Sparks publicados. Elige un plan para publicar uno.';
  const deploymentsOf = async (o: Owner) =>
    (
      await t
        .http()
        .get('/api/v1/account/profile')
        .set(...o.user.auth())
        .expect(200)
    ).body.data.tenants[0].subscription.limits.deployments.value as number;

  it('one during the trial (issue 31); none once it has ended without a plan, said as such, in both languages', async () => {
    for (const language of ['en', 'es'] as const) {
      const o = await owner(language);
      const ids = await sparksUpTo(o, 2);
      expect(await deploymentsOf(o)).toBe(1);
      await publish(o, ids[0]).expect(200);
      const second = await publish(o, ids[1]).expect(402);
      // One is published: "unpublish one" is right.
      expect(second.body.errors).toEqual([{ code: 'DEPLOYMENT_LIMIT', message: message(language, 1) }]);

      await sql.query("UPDATE tenants SET trial_ends_at = now() - interval '1 day' WHERE user_id = $1", [o.userId]);
      expect(await deploymentsOf(o)).toBe(0);
      await t
        .http()
        .delete(`/api/v1/sparks/${ids[0]}/deployment`)
        .set(...o.user.auth())
        .expect(200);
      const ended = await publish(o, ids[1]).expect(402);
      expect(ended.body.errors).toEqual([{ code: 'DEPLOYMENT_NOT_INCLUDED', message: none(language) }]);
    }
  });

  it('the bought plan’s number, exact when the unpublished Sparks race for the last place, in both languages', async () => {
    for (const language of ['en', 'es'] as const) {
      const o = await owner(language);
      const ids = await sparksUpTo(o, 5);
      await buy(o, 'price_emeral_month');
      const limit = await planLimit('emeral', 'limit_deployments');
      expect(limit).toBeGreaterThan(1);
      expect(await deploymentsOf(o)).toBe(limit);
      for (const id of ids.slice(0, limit - 1)) await publish(o, id).expect(200);
      // Every Spark not published yet races for the last place: exactly one gets it.
      const rest = ids.slice(limit - 1);
      const results = await Promise.all(rest.map((id) => publish(o, id)));
      expect(results.map((r) => r.status).sort()).toEqual([200, ...Array<number>(rest.length - 1).fill(402)]);
      for (const r of results.filter((x) => x.status === 402)) {
        expect(r.body.errors[0]).toEqual({ code: 'DEPLOYMENT_LIMIT', message: message(language, limit) });
      }
      const n = await sql.query('SELECT count(*)::int AS n FROM deployments WHERE user_id = $1', [o.userId]);
      expect(n.rows[0].n).toBe(limit);
    }
  });
});

describe('the document-sharing gate', () => {
  it('opens on Zaphire only, read from the plan in the database', async () => {
    const gates = new PlanGates(new BillingRepository(handle.db));
    const o = await owner('en');
    expect(await gates.documentSharing(o.userId)).toBe(false);
    await expect(gates.assertDocumentSharing(o.userId)).rejects.toMatchObject({ code: 'DOCUMENT_SHARING_PLAN' });
    await buy(o, 'price_ruby_month');
    expect(await gates.documentSharing(o.userId)).toBe(false);
    await buy(o, 'price_zaphire_month');
    expect(await gates.documentSharing(o.userId)).toBe(true);
    await expect(gates.assertDocumentSharing(o.userId)).resolves.toBeUndefined();
  });
});
