import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { makePdf } from '../integration/fixtures/pdfs';
import { createUser, eventually, type SignedUser, type TestApp } from '../integration/harness';

/** The kinds of resource a route can name by id. A route naming a new kind needs it added here. */
export type IdKind =
  | 'spark'
  | 'test'
  | 'document'
  | 'builderConversation'
  | 'testConversation'
  | 'systemConversation'
  | 'widgetConversation'
  | 'customer'
  | 'checkoutSession'
  | 'unansweredQuestion'
  | 'testAnswer'
  | 'check'
  | 'transcript';

/**
 * A user with one of everything: a Spark, a test, a read document, and a builder, a test and a
 * system-assistant conversation. Every text the user wrote carries `marker`, so that any answer
 * holding it to someone else is a leak, whatever field it came through.
 */
export interface World {
  label: string;
  user: SignedUser;
  userId: string;
  marker: string;
  deployToken: string;
  /** The token of the visitor who wrote in the widget conversation. */
  visitorToken: string;
  ids: Record<IdKind, string>;
}

/** What answers to another user must never contain. */
export function secretsOf(w: World): string[] {
  return [w.marker, w.user.username, w.userId, w.deployToken];
}

export interface Sent {
  method: string;
  path: string;
  /** An access token, or none for a signed-out call. */
  token?: string;
  query?: Record<string, string>;
  json?: unknown;
  /** Extra headers (the widget's Origin and visitor token). */
  headers?: Record<string, string>;
  /** A multipart form; `file` is sent as a PDF named `fileName`. */
  form?: { fields: Record<string, string>; file?: Buffer; fileName?: string };
}

export interface Got {
  status: number;
  text: string;
  json: unknown;
  eventStream: boolean;
}

/**
 * One HTTP request to the listening app. An event stream is read until its `done` or `error` event,
 * as a client would, so that nothing is still being written when the next request looks.
 */
export async function call(base: string, req: Sent): Promise<Got> {
  const url = new URL(req.path, base);
  for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { ...req.headers };
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  let body: string | FormData | undefined;
  if (req.form) {
    const fd = new FormData();
    for (const [k, v] of Object.entries(req.form.fields)) fd.append(k, v);
    if (req.form.file) {
      fd.append('file', new Blob([req.form.file], { type: 'application/pdf' }), req.form.fileName ?? 'file.pdf');
    }
    body = fd;
  } else if (req.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(req.json);
  }
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 45_000);
  try {
    const res = await fetch(url, { method: req.method, headers, body, signal: abort.signal });
    const eventStream = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
    let text = '';
    if (eventStream && res.body) {
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (/"type":"(done|error)"/.test(text)) break;
      }
      await reader.cancel().catch(() => undefined);
    } else {
      text = await res.text();
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json, eventStream };
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/** The first event of a stream: `{ messages, sessionId }`. */
function firstEvent(text: string): Record<string, unknown> {
  const line = text.split('\n').find((l) => l.startsWith('data: '));
  if (!line) throw new Error(`no event in ${text.slice(0, 200)}`);
  return JSON.parse(line.slice(6)) as Record<string, unknown>;
}

async function must(base: string, req: Sent, status: number[] = [200, 201]): Promise<Got> {
  const got = await call(base, req);
  if (!status.includes(got.status)) {
    throw new Error(`${req.method} ${req.path} answered ${got.status}: ${got.text.slice(0, 300)}`);
  }
  return got;
}

const data = (got: Got) => (got.json as { data: Record<string, unknown> }).data;

/** A small real PDF whose text carries the marker. */
export function markedPdf(marker: string): Promise<Buffer> {
  return makePdf([
    { heading: `Opening hours ${marker}`, paragraphs: [[`The shop ${marker} opens from nine to six every weekday.`]] },
  ]);
}

/**
 * Document sharing configured, so that its routes answer as they do in production: the authorize route only
 * builds a URL, and nothing is ever called at this address.
 */
export const documentSharingEnv = (): Record<string, string> => ({
  MICROSOFT_CLIENT_ID: 'security-client',
  MICROSOFT_CLIENT_SECRET: 'security-secret',
  MICROSOFT_LOGIN_URL: 'http://127.0.0.1:9',
  INTEGRATION_TOKEN_KEY: randomBytes(32).toString('base64'),
});

/** The app's own origin in the test environment: APP_URL's (test/integration/global-setup.ts). */
export const appOrigin = () => new URL(process.env.APP_URL ?? 'http://localhost:3000').origin;

export async function buildWorld(t: TestApp, label: string): Promise<World> {
  const base = await t.url();
  const user = await createUser(t, { tag: `sec-${label}` });
  const token = user.access;
  const marker = `zq${randomBytes(6).toString('hex')}`;
  const spark = data(
    await must(base, {
      method: 'POST',
      path: '/api/v1/sparks',
      token,
      json: { name: `Spark ${marker}`, options: { initialMessage: `Welcome ${marker}`, language: 'en' } },
    }),
  );
  const sparkId = spark._id as string;
  const test = data(
    await must(base, {
      method: 'POST',
      path: `/api/v1/sparks/${sparkId}/tests`,
      token,
      json: { name: `Test ${marker}` },
    }),
  );
  const builder = data(await must(base, { method: 'GET', path: `/api/v1/sparks/${sparkId}/conversation`, token }));
  const builderConversation = builder.sessionId as string;
  await must(base, {
    method: 'POST',
    path: `/api/v1/sparks/${sparkId}/messages`,
    token,
    json: { input: { text: `Note ${marker}` }, sessionId: builderConversation },
  });
  const upload = data(
    await must(base, {
      method: 'POST',
      path: '/api/v1/bucket',
      token,
      form: {
        fields: { sparkId, conversationId: builderConversation, name: `Guide ${marker}.pdf` },
        file: await markedPdf(marker),
        fileName: 'guide.pdf',
      },
    }),
  );
  const documentId = upload._id as string;
  const testHistory = data(
    await must(base, {
      method: 'GET',
      path: `/api/v1/sparks/${sparkId}/tests/${test._id as string}/conversation`,
      token,
    }),
  );
  const system = await must(base, {
    method: 'GET',
    path: '/api/v1/spark-sys/main/chat',
    token,
    query: { 'input.text': `Hello ${marker}` },
  });
  const profile = data(await must(base, { method: 'GET', path: '/api/v1/account/profile', token }));
  // Published (the plan allows one deployment), with a visitor's conversation through the public API;
  // on the zaphire plan, which alone may connect document sharing (its checkout, below, is for zaphire too,
  // so paying it in the matrix keeps the plan).
  const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  await sql
    .query(`UPDATE tenants SET limit_deployments = 1, product_name = 'Zaphire' WHERE user_id = $1`, [profile._id])
    .then(() =>
      sql.query(
        `INSERT INTO tenant_billing (tenant_id, plan_slug, period_start, period_end)
         SELECT id, 'zaphire', now(), now() + interval '1 month' FROM tenants WHERE user_id = $1
         ON CONFLICT (tenant_id) DO UPDATE SET plan_slug = 'zaphire'`,
        [profile._id],
      ),
    )
    .finally(() => sql.end());
  const deployment = data(
    await must(base, { method: 'POST', path: `/api/v1/sparks/${sparkId}/deployment`, token, json: {} }),
  );
  const deployToken = deployment.token as string;
  const widget = `/api/v1/public/widgets/${deployToken}`;
  // The app's own origin (APP_URL's), where the owner's preview runs; the allow-list never takes the request's Host.
  const origin = { Origin: appOrigin() };
  const visitor = data(await must(base, { method: 'POST', path: `${widget}/visitors`, headers: origin, json: {} }));
  const visitorAuth = { ...origin, Authorization: `Bearer ${visitor.visitorToken as string}` };
  const widgetConversation = data(
    await must(base, { method: 'POST', path: `${widget}/conversations`, headers: visitorAuth, json: {} }),
  ).conversationId as string;
  await must(base, {
    method: 'POST',
    path: `${widget}/conversations/${widgetConversation}/messages`,
    headers: visitorAuth,
    json: { text: `Opening hours ${marker}?` },
  });
  const customerId = (profile.tenants as Array<{ customerId: string }>)[0].customerId;
  const checkout = data(
    await must(base, {
      method: 'POST',
      path: `/api/v1/billing/customers/${customerId}/session`,
      token,
      json: { mode: 'subscription', priceId: 'price_zaphire_month' },
    }),
  );
  await eventually(async () => {
    const doc = data(
      await must(base, { method: 'GET', path: `/api/v1/sparks/${sparkId}/documents/${documentId}`, token }),
    );
    return doc.status === 'completed' || doc.status === 'error';
  }, 30_000);
  // A question the Spark cannot answer (asked once its document is read): the owner's unanswered list.
  await must(base, {
    method: 'POST',
    path: `${widget}/conversations/${widgetConversation}/messages`,
    headers: visitorAuth,
    json: { text: 'Do you sell gift cards or vouchers?' },
  });
  const unanswered = data(await must(base, { method: 'GET', path: `/api/v1/sparks/${sparkId}/unanswered`, token }));
  const unansweredQuestion = (unanswered as unknown as Array<{ id: string }>)[0]?.id;
  if (!unansweredQuestion) throw new Error('the world has no unanswered question');
  const testAnswer = await answerInTest(base, token, sparkId, test._id as string, marker);
  const check = data(
    await must(base, {
      method: 'POST',
      path: `/api/v1/sparks/${sparkId}/checks`,
      token,
      json: { question: `When do you open ${marker}?`, answer: `At nine ${marker}.` },
    }),
  ).id as string;
  // A judged test: its conversation stays as its transcript, with an answer and the marker.
  const judged = data(
    await must(base, {
      method: 'POST',
      path: `/api/v1/sparks/${sparkId}/tests`,
      token,
      json: { name: `Judged ${marker}` },
    }),
  );
  await answerInTest(base, token, sparkId, judged._id as string, marker);
  await must(base, {
    method: 'DELETE',
    path: `/api/v1/sparks/${sparkId}/tests/${judged._id as string}`,
    token,
    query: { verdict: 'unsatisfactory' },
  });
  const transcripts = data(await must(base, { method: 'GET', path: `/api/v1/sparks/${sparkId}/transcripts`, token }));
  const transcript = (transcripts as unknown as Array<{ conversationId: string }>)[0]?.conversationId;
  if (!transcript) throw new Error('the world has no transcript');
  return {
    label,
    user,
    userId: profile._id as string,
    marker,
    deployToken,
    visitorToken: visitor.visitorToken as string,
    ids: {
      spark: sparkId,
      test: test._id as string,
      document: documentId,
      builderConversation,
      testConversation: testHistory.sessionId as string,
      systemConversation: firstEvent(system.text).sessionId as string,
      widgetConversation,
      customer: customerId,
      checkoutSession: String(checkout.sessionUrl).split('/checkout/')[1],
      unansweredQuestion,
      testAnswer,
      check,
      transcript,
    },
  };
}

/** An answer of the Spark in the user's test chat (one the owner may rate), asking for one when there is none. */
async function answerInTest(base: string, token: string, sparkId: string, testId: string, marker: string) {
  const history = data(
    await must(base, { method: 'GET', path: `/api/v1/sparks/${sparkId}/tests/${testId}/conversation`, token }),
  );
  const rateable = (history.messages as Array<{ _id: string; type: string; data: { answer?: string } }>).find(
    (m) => m.type === 'ai' && (m.data.answer === 'answer' || m.data.answer === 'notCovered'),
  );
  if (rateable) return rateable._id;
  const asked = data(
    await must(base, {
      method: 'POST',
      path: `/api/v1/sparks/${sparkId}/chat/${testId}`,
      token,
      json: { input: { text: `What do you offer ${marker}?` } },
    }),
  );
  return (asked.ai as { _id: string })._id;
}

/** Reads again the ids that requests may have replaced (restarting a test starts a new conversation). */
export async function refreshWorld(t: TestApp, w: World): Promise<void> {
  const base = await t.url();
  const token = w.user.access;
  const builder = data(await must(base, { method: 'GET', path: `/api/v1/sparks/${w.ids.spark}/conversation`, token }));
  w.ids.builderConversation = builder.sessionId as string;
  const test = data(
    await must(base, {
      method: 'GET',
      path: `/api/v1/sparks/${w.ids.spark}/tests/${w.ids.test}/conversation`,
      token,
    }),
  );
  w.ids.testConversation = test.sessionId as string;
  w.ids.testAnswer = await answerInTest(base, token, w.ids.spark, w.ids.test, w.marker);
}
