/**
 * An account with something in every part the owner's rights cover (issue 30), made through the real api and
 * worker: a profile, a Spark with instructions, an uploaded and read PDF, a test and its chat, a question it could
 * not answer and the owner's answer, a published widget with an allowed site, a visitor's conversation and the
 * e-mail the visitor left, a plan bought with the local provider, a chat with the home assistant. Every text the owner or a visitor wrote carries
 * the account's `marker`, so a test can look for it anywhere afterwards.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { makePdf } from '../fixtures/pdfs';
import { userIdOf } from '../fixtures/knowledge';
import { buyPlan } from '../factories';
import { createUser, eventually, type SignedUser, type TestApp } from '../harness';

export const SHOP = 'http://shop.localhost:8081';

export interface RichAccount {
  user: SignedUser;
  userId: string;
  tenantId: string;
  customerId: string;
  marker: string;
  sparkId: string;
  documentId: string;
  storageKey: string;
  pdf: Buffer;
  testId: string;
  deployToken: string;
  visitorToken: string;
  widgetConversationId: string;
  contactEmail: string;
  checkoutSessionId: string;
}

const widget = (token: string) => `/api/v1/public/widgets/${token}`;

export async function richAccount(t: TestApp, sql: Pool, language: 'en' | 'es' = 'en'): Promise<RichAccount> {
  const marker = `mk${randomBytes(6).toString('hex')}`;
  const user = await createUser(t, { language, tag: 'rights' });
  const userId = await userIdOf(sql, user.username);
  const http = () => t.http();
  await http()
    .patch('/api/v1/account/profile')
    .set(...user.auth())
    .send({ firstname: `Ana ${marker}`, lastname: 'Pérez', timeZone: 'Europe/Madrid', weeklyDigest: false })
    .expect(200);
  // A chat with a system assistant (the home chat): its event stream ends with the reply.
  await http()
    .get('/api/v1/spark-sys/main/chat')
    .query({ 'input.text': `Hello, I am Ana ${marker}` })
    .set(...user.auth())
    .expect(200);
  const [tenant] = (await sql.query('SELECT id, customer_id FROM tenants WHERE user_id = $1', [userId])).rows;
  await sql.query('UPDATE tenants SET limit_deployments = 1 WHERE id = $1', [tenant.id]);

  const spark = (
    await http()
      .post('/api/v1/sparks')
      .set(...user.auth())
      .send({ name: `Bakery ${marker}`, options: { language: 'en' } })
      .expect(201)
  ).body.data as { _id: string };
  await sql.query(`UPDATE sparks SET options = options || jsonb_build_object('sysPrompt', $2::text) WHERE id = $1`, [
    spark._id,
    `You are the assistant of Bakery ${marker}. Answer only from the documents.`,
  ]);

  const pdf = await makePdf([
    {
      heading: `Bakery ${marker} opening hours`,
      paragraphs: [[`The bakery ${marker} opens every day from 8 to 20.`, 'Bread is baked at dawn.']],
    },
  ]);
  const uploaded = (
    await http()
      .post('/api/v1/bucket')
      .set(...user.auth())
      .field('sparkId', spark._id)
      .attach('file', pdf, { filename: `Hours ${marker}.pdf`, contentType: 'application/pdf' })
      .expect(201)
  ).body.data as { _id: string };
  await eventually(async () => {
    const res = await http()
      .get(`/api/v1/sparks/${spark._id}/documents/${uploaded._id}`)
      .set(...user.auth());
    return res.body.data?.status === 'completed';
  }, 45_000);
  const [doc] = (await sql.query('SELECT storage_key FROM documents WHERE id = $1', [uploaded._id])).rows;

  const test = (
    await http()
      .post(`/api/v1/sparks/${spark._id}/tests`)
      .set(...user.auth())
      .send({ name: `Hours test ${marker}` })
      .expect(201)
  ).body.data as { _id: string };
  for (const text of [`When does the bakery ${marker} open?`, `Do you sell gift cards ${marker}?`]) {
    await http()
      .post(`/api/v1/sparks/${spark._id}/chat/${test._id}`)
      .set(...user.auth())
      .send({ input: { text } })
      .expect(201);
  }
  const groups = await eventually(async () => {
    const res = await http()
      .get(`/api/v1/sparks/${spark._id}/unanswered`)
      .set(...user.auth());
    const list = res.body.data as Array<{ id: string; question: string }>;
    return list.length > 0 ? list : undefined;
  });
  await http()
    .post(`/api/v1/sparks/${spark._id}/unanswered/${groups[0].id}/answer`)
    .set(...user.auth())
    .send({ answer: `Yes, gift cards ${marker} from 10 euros.` })
    .expect(200);

  const published = (
    await http()
      .post(`/api/v1/sparks/${spark._id}/deployment`)
      .set(...user.auth())
      .send({})
      .expect(200)
  ).body.data as { token: string };
  await http()
    .post(`/api/v1/sparks/${spark._id}/deployment/origins`)
    .set(...user.auth())
    .send({ origin: SHOP })
    .expect(200);
  const visitorToken = (
    await http()
      .post(`${widget(published.token)}/visitors`)
      .set('Origin', SHOP)
      .send({})
      .expect(200)
  ).body.data.visitorToken as string;
  const conversationId = (
    await http()
      .post(`${widget(published.token)}/conversations`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${visitorToken}`)
      .expect(201)
  ).body.data.conversationId as string;
  await http()
    .post(`${widget(published.token)}/conversations/${conversationId}/messages`)
    .set('Origin', SHOP)
    .set('Authorization', `Bearer ${visitorToken}`)
    .send({ text: `Is the bakery ${marker} open on Sunday?` })
    .expect(200);
  const contactEmail = `visitor.${marker}@example.com`;
  await http()
    .post(`${widget(published.token)}/contact`)
    .set('Origin', SHOP)
    .set('Authorization', `Bearer ${visitorToken}`)
    .send({ email: contactEmail, conversationId })
    .expect(200);

  const checkoutSessionId = await buyPlan(t, user, tenant.customer_id, 'price_ruby_month');

  return {
    user,
    userId,
    tenantId: tenant.id,
    customerId: tenant.customer_id,
    marker,
    sparkId: spark._id,
    documentId: uploaded._id,
    storageKey: doc.storage_key,
    pdf,
    testId: test._id,
    deployToken: published.token,
    visitorToken,
    widgetConversationId: conversationId,
    contactEmail,
    checkoutSessionId,
  };
}
