/**
 * Test data, made through the real api as a user would: one place for the users, Sparks and tests the
 * integration tests need (each test file used to write its own).
 */
import { createUser, type SignedUser, type TestApp } from './harness';

export { createUser, type SignedUser };

/** The `data` of a Spark as the api answers it. */
export interface SparkData {
  _id: string;
  name: string;
  [key: string]: unknown;
}

/** The `data` of a test of a Spark as the api answers it. */
export interface TestData {
  _id: string;
  sparkId: string;
  name: string;
  [key: string]: unknown;
}

/** A Spark of `user` (`POST /api/v1/sparks`), with the body given (defaults otherwise). */
export async function createSpark(
  t: TestApp,
  user: SignedUser,
  body: Record<string, unknown> = {},
): Promise<SparkData> {
  const res = await t
    .http()
    .post('/api/v1/sparks')
    .set(...user.auth())
    .send(body)
    .expect(201);
  return (res.body as { data: SparkData }).data;
}

/** A test of a Spark of `user` (`POST /api/v1/sparks/:sparkId/tests`). */
export async function createTest(
  t: TestApp,
  user: SignedUser,
  sparkId: string,
  body: Record<string, unknown> = { name: 'Test' },
): Promise<TestData> {
  const res = await t
    .http()
    .post(`/api/v1/sparks/${sparkId}/tests`)
    .set(...user.auth())
    .send(body)
    .expect(201);
  return (res.body as { data: TestData }).data;
}

/**
 * Buys a plan for `user` on the local payment provider (the same fulfilment as a webhook): the checkout
 * session of their customer, then its payment. Answers the session's id.
 */
export async function buyPlan(
  t: TestApp,
  user: SignedUser,
  customerId: string,
  priceId: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const session = await t
    .http()
    .post(`/api/v1/billing/customers/${customerId}/session`)
    .set(...user.auth())
    .send({ mode: 'subscription', priceId, ...body })
    .expect(201);
  const sessionId = String((session.body as { data: { sessionUrl: string } }).data.sessionUrl).split('/checkout/')[1];
  await t
    .http()
    .post(`/api/v1/billing/checkout/${sessionId}/pay`)
    .set(...user.auth())
    .expect(200);
  return sessionId;
}
