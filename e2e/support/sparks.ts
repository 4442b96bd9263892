import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import PDFDocument from 'pdfkit';
import { Pool } from 'pg';

import { signUp, type Account } from './account';

/** Answers are wrapped in `{ data }`; anything but a 2xx fails the test with the answer's text. */
export async function dataOf<T>(response: APIResponse): Promise<T> {
  expect(response.ok(), `${response.url()} answered ${response.status()}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: T }).data;
}

/** A one-page A4 PDF: a title line, then the body (each string a paragraph). */
export function makePdf(title: string, ...body: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', info: { Title: title } });
    const parts: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => parts.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
    doc.fontSize(18).text(title).moveDown();
    doc.fontSize(11);
    for (const paragraph of body) doc.text(paragraph).moveDown();
    doc.end();
  });
}

/** Runs `statement` on the account's tenant row (`… WHERE user_id = <the account's user>`). */
export async function onTenant(account: Account, statement: string): Promise<void> {
  const sql = new Pool({ connectionString: process.env.E2E_DATABASE_URL, max: 1 });
  try {
    await sql.query(`${statement} WHERE user_id = (SELECT id FROM users WHERE username = $1)`, [account.email]);
  } finally {
    await sql.end();
  }
}

/** A Spark named `name` in `lang` (no documents) with one test, made through the API. */
export async function sparkWithTest(
  request: APIRequestContext,
  account: Account,
  name: string,
  lang: 'en' | 'es',
): Promise<{ spark: { _id: string }; testCase: { _id: string } }> {
  const spark = await dataOf<{ _id: string }>(
    await request.post('/api/v1/sparks', { headers: account.headers, data: { name, options: { language: lang } } }),
  );
  const testCase = await dataOf<{ _id: string }>(
    await request.post(`/api/v1/sparks/${spark._id}/tests`, {
      headers: account.headers,
      data: { name: 'T1', params: { documentId: null, waitResponse: true } },
    }),
  );
  return { spark, testCase };
}

/** Sets how many Sparks the account's plan lets it publish at once (billing sets it per plan). */
export async function allowDeployments(account: Account, count: number): Promise<void> {
  const sql = new Pool({ connectionString: process.env.E2E_DATABASE_URL, max: 1 });
  await sql
    .query('UPDATE tenants SET limit_deployments = $2 WHERE user_id = (SELECT id FROM users WHERE username = $1)', [
      account.email,
      count,
    ])
    .finally(() => sql.end());
}

/** The palette and icon of a Spark, as the builder's look steps store them. */
export async function themeSpark(
  sparkId: string,
  theme: { palette: { name: string; primary: string; secondary: string }; icon: string },
): Promise<void> {
  const sql = new Pool({ connectionString: process.env.E2E_DATABASE_URL, max: 1 });
  await sql
    .query(`UPDATE sparks SET options = jsonb_set(options, '{theme}', $2::jsonb) WHERE id = $1`, [
      sparkId,
      JSON.stringify(theme),
    ])
    .finally(() => sql.end());
}

/**
 * Buys a plan for the account on the local payment provider (checkout, then "pay": the fulfilment a
 * webhook runs): e.g. Emerald (`price_emeral_month`) for a test that needs more Sparks than the free
 * plan's limit.
 */
export async function buyPlan(request: APIRequestContext, account: Account, priceId: string): Promise<void> {
  const profile = await dataOf<{ tenants: Array<{ customerId: string }> }>(
    await request.get('/api/v1/account/profile', { headers: account.headers }),
  );
  const { sessionUrl } = await dataOf<{ sessionUrl: string }>(
    await request.post(`/api/v1/billing/customers/${profile.tenants[0].customerId}/session`, {
      headers: account.headers,
      data: { mode: 'subscription', priceId },
    }),
  );
  const sessionId = sessionUrl.split('/checkout/')[1];
  await dataOf(await request.post(`/api/v1/billing/checkout/${sessionId}/pay`, { headers: account.headers }));
}

/** Waits until every document of the Spark is read (`completed`), and checks there are `count` of them. */
async function documentsRead(request: APIRequestContext, account: Account, sparkId: string, count = 1) {
  await expect
    .poll(
      async () =>
        (
          await dataOf<Array<{ status: string }>>(
            await request.get(`/api/v1/sparks/${sparkId}/documents`, { headers: account.headers }),
          )
        ).map((d) => d.status),
      { timeout: 60_000 },
    )
    .toEqual(Array.from({ length: count }, () => 'completed'));
}

export interface SparkWithPdf {
  lang: 'en' | 'es';
  /** Tag of the account's e-mail address. */
  tag: string;
  name: string;
  greeting: string;
  /** The PDF's file name, its title line and its text. */
  pdf: string;
  title: string;
  text: string;
}

/**
 * A new account (allowed one deployment, as a paid plan would be) with a Spark in `lang` whose PDF is read.
 */
export async function sparkWithPdf(
  request: APIRequestContext,
  s: SparkWithPdf,
): Promise<{ account: Account; sparkId: string }> {
  const account = await signUp(request, s.lang, s.tag);
  await allowDeployments(account, 1);
  const spark = await dataOf<{ _id: string }>(
    await request.post('/api/v1/sparks', {
      headers: account.headers,
      data: { name: s.name, options: { initialMessage: s.greeting, language: s.lang } },
    }),
  );
  const uploaded = await request.post('/api/v1/bucket', {
    headers: account.headers,
    multipart: {
      sparkId: spark._id,
      name: s.pdf,
      file: { name: s.pdf, mimeType: 'application/pdf', buffer: await makePdf(s.title, s.text) },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBeLessThan(300);
  await documentsRead(request, account, spark._id);
  return { account, sparkId: spark._id };
}
