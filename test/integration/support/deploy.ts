import type { Pool } from 'pg';
import { addDocument, userIdOf } from '../fixtures/knowledge';
import { createUser, type SignedUser, type TestApp } from '../harness';

/** An owner whose plan may publish one Spark, with a Spark named Northwind (and, if given, one document). */
export interface DeployOwner {
  user: SignedUser;
  userId: string;
  sparkId: string;
}

export async function deployOwner(
  t: TestApp,
  sql: Pool,
  { language = 'en', tag, pages }: { language?: 'en' | 'es'; tag: string; pages?: string[] },
): Promise<DeployOwner> {
  const user = await createUser(t, { language, tag });
  const userId = await userIdOf(sql, user.username);
  await sql.query('UPDATE tenants SET limit_deployments = 1 WHERE user_id = $1', [userId]);
  const spark = (
    await t
      .http()
      .post('/api/v1/sparks')
      .set(...user.auth())
      .send({ name: 'Northwind', options: { language } })
      .expect(201)
  ).body.data;
  if (pages) await addDocument(sql, { sparkId: spark._id, userId, name: 'Handbook.pdf', pages, language: 'en' });
  return { user, userId, sparkId: spark._id as string };
}

/** `…/sparks/{id}/deployment` of the owner's Spark. */
export const deploymentPath = (o: DeployOwner) => `/api/v1/sparks/${o.sparkId}/deployment`;
/** The public widget API of a deploy token. */
export const widgetPath = (token: string) => `/api/v1/public/widgets/${token}`;

/** Publishes the owner's Spark and allows `origin` (200s expected); answers the deploy token. */
export async function publishOn(t: TestApp, o: DeployOwner, origin: string): Promise<string> {
  const view = (
    await t
      .http()
      .post(deploymentPath(o))
      .set(...o.user.auth())
      .send({})
      .expect(200)
  ).body.data;
  await t
    .http()
    .post(`${deploymentPath(o)}/origins`)
    .set(...o.user.auth())
    .send({ origin })
    .expect(200);
  return view.token as string;
}
