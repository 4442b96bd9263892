import { PASSWORD } from '../integration/harness';
import { markedPdf, type IdKind, type World } from './world';

/**
 * How the tenancy matrix fills each route of the api. The matrix lists the routes from the running
 * app, not from this file: a route that is here by mistake fails, and a route that is missing here
 * is probed on its own when it can be (GET or DELETE, every path parameter one of DEFAULT_PATH_IDS,
 * no id in its query), and otherwise fails with a message naming it.
 *
 * Keys are `METHOD /path` as Express routes them (`:param`); a key ending in `*` covers every path
 * that starts with what comes before it. To add a route: give the ids it reads
 * (`ids`, each with the kinds of resource it may name), the body or form an owner would send, and
 * what the owner's request answers when that is not 2xx. The matrix then sends it signed out
 * (401), as the owner (control), as another user with their own ids (2xx, none of the owner's
 * data) and as another user with the owner's ids, one slot at a time and all at once (404).
 */
export interface IdSlot {
  in: 'path' | 'query' | 'body' | 'form';
  /** Path parameter, query parameter, form field, or dotted path inside the JSON body. */
  name: string;
  /** What the id may name; each kind is probed on its own. */
  kinds: IdKind[];
  /**
   * The route accepts the field but does not read it (a shared query schema): another user's id
   * there must change nothing, so the answer is the caller's own and holds nothing of the owner's.
   */
  ignored?: true;
  /**
   * Left out of the request an owner sends, and set only when probed: for an alias that the route
   * reads when the usual field is absent (`sessionId` for `conversationId`).
   */
  optional?: true;
}

export interface RouteFixture {
  /** The route is @Public(): why it is open, and why it takes no id of anyone's data. */
  public?: string;
  /**
   * For admins only (neither world is one): signed out it answers 401, as either user 403 holding
   * nothing of the owner's; admin.it.ts tests what an admin gets. Say what it does.
   */
  adminOnly?: string;
  /** Values of path parameters that are not ids (an assistant's name). */
  literals?: Record<string, string>;
  /** Ids besides the path parameters of DEFAULT_PATH_IDS. */
  ids?: IdSlot[];
  query?: (w: World) => Record<string, string>;
  body?: (w: World) => Record<string, unknown>;
  form?: (w: World) => Record<string, string>;
  /** Whether the form carries the world's PDF. */
  file?: (w: World) => Promise<Buffer>;
  /** Ends every session of the caller (logout): both users sign in again afterwards. */
  endsSessions?: true;
  /**
   * Deletes the caller's account (`DELETE /account`): probed after every other route, its owner's request deletes
   * the owner and the other user's own request deletes the other user.
   */
  deletesAccount?: true;
  /**
   * What the owner's (and the other user's own) request answers when that is not 2xx, and why: a route whose
   * rules refuse the world's users by design.
   */
  refused?: { status: number; why: string };
  /**
   * A website visitor's route (the public widget API): `:token` is the world's deploy token,
   * `:conversationId` its widget conversation, and the request carries the widget's Origin and the
   * visitor's token instead of the user's. Without them every probe would stop at the unknown
   * token (404) and never reach the body's validation.
   */
  visitor?: true;
}

/** Path parameters whose name says what they name; any other needs a fixture. */
export const DEFAULT_PATH_IDS: Record<string, IdKind> = {
  sparkId: 'spark',
  testId: 'test',
  documentId: 'document',
};

const ANY_CONVERSATION: IdKind[] = ['systemConversation', 'builderConversation', 'testConversation'];

export const ROUTE_FIXTURES: Record<string, RouteFixture> = {
  // — open routes —
  'GET /api/v1/health': { public: 'liveness for load balancers; reads no user data' },
  'GET /api/v1/health/live': { public: 'liveness probe; asks nothing, reads no user data' },
  'GET /api/v1/health/ready': { public: 'readiness probe: database, Redis, migrations; reads no user data' },

  // — admins only (admin.it.ts, bull-board.it.ts) —
  'GET /api/v1/admin/users': {
    adminOnly: 'an account by e-mail',
    query: (w) => ({ email: w.user.username }),
  },
  'POST /api/v1/admin/users/:userId/disable': {
    adminOnly: 'disables an account',
    literals: { userId: '00000000-0000-4000-8000-000000000000' },
  },
  'POST /api/v1/admin/users/:userId/enable': {
    adminOnly: 'enables an account',
    literals: { userId: '00000000-0000-4000-8000-000000000000' },
  },
  'GET /api/v1/admin/audit': { adminOnly: 'the latest admin actions' },
  'POST /api/v1/admin/session': { adminOnly: 'the admin pages cookie' },
  'GET /api/v1/dev/outbox': {
    public: 'dev outbox: off unless DEV_OUTBOX, loopback only, one recipient (dev-outbox.it.ts)',
  },
  'POST /api/v1/auth/register': { public: 'sign-up' },
  'POST /api/v1/auth/send-code': { public: 'sign-up: resend the code (rate-limited)' },
  'POST /api/v1/auth/verify-code': { public: 'sign-up: the code is the credential (rate-limited)' },
  'POST /api/v1/auth/login': { public: 'sign-in (rate-limited, auth-attacks.sec.ts)' },
  'POST /api/v1/auth/refresh-token': { public: 'the refresh token is the credential (auth-attacks.sec.ts)' },
  'GET /api/v1/auth/providers': { public: 'which sign-in providers are configured' },
  'GET /api/v1/auth/support': { public: 'the configured support address; reads no user data' },
  'GET /api/v1/auth/exchange-token': { public: 'the one-time Google hand-off token is the credential' },
  'GET /api/v1/auth/service/:provider/login': { public: 'where to start a provider sign-in' },
  'GET /api/v1/auth/service/google/start': { public: 'redirect to Google' },
  'GET /api/v1/auth/service/google/callback': { public: 'Google returns here (state checked)' },
  'GET /api/v1/integrations/microsoft/callback': {
    public:
      'Microsoft returns here; the signed single-use state names the user and Spark and is bound to the browser by a cookie (integrations.it.ts)',
  },
  'POST /api/v1/users/forgot-password': { public: 'mails a reset link to the address (rate-limited)' },
  'POST /api/v1/users/reset-password': { public: 'the reset token is the credential (auth-attacks.sec.ts)' },
  'GET /api/v1/public/widgets/*': {
    public:
      'the website widget: the deploy token names the Spark, the origin allow-list and the visitor token guard it (deploy.it.ts)',
    visitor: true,
  },
  'POST /api/v1/public/widgets/*': {
    public:
      'the website widget: the deploy token names the Spark, the origin allow-list and the visitor token guard it (deploy.it.ts)',
    visitor: true,
  },
  'DELETE /api/v1/public/widgets/*': {
    public:
      "the website widget: a visitor deletes their own conversation; the visitor token names the visitor, another's conversation is 404 (visitor-privacy.it.ts)",
    visitor: true,
  },
  'GET /api/v1/account/exports/:exportId/download': {
    public:
      "the e-mailed link to an export: the link's 256-bit secret (kept hashed, 7 days) is the credential, with the export's id (account-export.it.ts)",
  },
  'GET /api/v1/account/privacy-policy': {
    public: 'where the privacy policy is (PRIVACY_POLICY_URL); reads no user data',
  },
  'POST /api/v1/public/connect': {
    public: 'the Pulse connects a site: the one-time site key is the credential (deploy.it.ts)',
  },
  'GET /api/docs*': { public: 'API documentation and its assets; 404 in production (api-docs.it.ts)' },
  'POST /api/v1/billing/webhooks/stripe': {
    public:
      "Stripe's webhook: Stripe calls it with no user; the signature over the raw body (STRIPE_WEBHOOK_SECRET) is the credential, a bad one is 400 and changes nothing, and what it changes is re-read from Stripe, never taken from the body (stripe.it.ts); 404 without Stripe",
  },

  // — the signed-in user —
  'POST /api/v1/auth/logout': { body: () => ({}), endsSessions: true },
  'PATCH /api/v1/account/profile': { body: (w) => ({ firstname: `First ${w.marker}` }) },
  'POST /api/v1/account/deletion-code': {
    body: () => ({}),
    refused: { status: 409, why: 'the worlds sign in with a password, which confirms a deletion (no code by e-mail)' },
  },
  'DELETE /api/v1/account': {
    body: (w) => ({ confirmation: w.user.username, password: PASSWORD }),
    deletesAccount: true,
  },

  // — Sparks and their tests —
  'POST /api/v1/sparks': { body: (w) => ({ name: `Another ${w.marker}` }) },
  'PATCH /api/v1/sparks/:sparkId': { body: (w) => ({ name: `Spark ${w.marker}`, pin: true }) },
  'POST /api/v1/sparks/:sparkId/tests': {
    ids: [{ in: 'body', name: 'params.documentId', kinds: ['document'] }],
    body: (w) => ({ name: `Second test ${w.marker}`, params: { documentId: w.ids.document } }),
  },
  'PATCH /api/v1/sparks/:sparkId/tests/:testId': { body: (w) => ({ name: `Test ${w.marker}` }) },
  // Judged: the test's conversation stays as its transcript (another user's judgement must keep nothing).
  'DELETE /api/v1/sparks/:sparkId/tests/:testId': { query: () => ({ verdict: 'satisfactory' }) },
  'PATCH /api/v1/sparks/:sparkId/documents/:documentId': { body: (w) => ({ title: `Menu ${w.marker}` }) },
  'POST /api/v1/sparks/:sparkId/tests/:testId/error': { body: (w) => ({ error: `It said nothing ${w.marker}` }) },

  // — chats —
  'POST /api/v1/sparks/:sparkId/chat/:testId': {
    ids: [{ in: 'body', name: 'conversationId', kinds: ['testConversation'] }],
    body: (w) => ({ input: { text: `What are the hours? ${w.marker}` }, conversationId: w.ids.testConversation }),
  },
  'GET /api/v1/sparks/:sparkId/chat/:testId': {
    ids: [
      { in: 'query', name: 'sessionId', kinds: ['testConversation'] },
      { in: 'query', name: 'conversationId', kinds: ['testConversation'], optional: true },
      { in: 'query', name: 'options.sparkId', kinds: ['spark'], ignored: true },
    ],
    query: (w) => ({
      'input.text': `When do you open? ${w.marker}`,
      sessionId: w.ids.testConversation,
      'options.sparkId': w.ids.spark,
    }),
  },
  'POST /api/v1/sparks/:sparkId/messages': {
    ids: [{ in: 'body', name: 'sessionId', kinds: ['builderConversation'] }],
    body: (w) => ({ input: { text: `Tell me more ${w.marker}` }, sessionId: w.ids.builderConversation }),
  },
  'GET /api/v1/sparks/:sparkId/chat': {
    ids: [
      { in: 'query', name: 'sessionId', kinds: ['builderConversation'] },
      { in: 'query', name: 'conversationId', kinds: ANY_CONVERSATION, ignored: true },
      { in: 'query', name: 'options.sparkId', kinds: ['spark'], ignored: true },
    ],
    query: (w) => ({
      'input.text': `Go on ${w.marker}`,
      sessionId: w.ids.builderConversation,
      conversationId: w.ids.builderConversation,
      'options.sparkId': w.ids.spark,
    }),
  },
  'GET /api/v1/spark-sys/conversations/:id': { ids: [{ in: 'path', name: 'id', kinds: ANY_CONVERSATION }] },
  'GET /api/v1/spark-sys/:sparkname/chat': {
    literals: { sparkname: 'main' },
    ids: [
      { in: 'query', name: 'sessionId', kinds: ['systemConversation'] },
      { in: 'query', name: 'options.sparkId', kinds: ['spark'] },
      { in: 'query', name: 'conversationId', kinds: ANY_CONVERSATION, ignored: true },
    ],
    query: (w) => ({
      'input.text': `Hi again ${w.marker}`,
      sessionId: w.ids.systemConversation,
      'options.sparkId': w.ids.spark,
      conversationId: w.ids.systemConversation,
    }),
  },
  'GET /api/v1/llm/chat-history/:id': { ids: [{ in: 'path', name: 'id', kinds: ANY_CONVERSATION }] },

  // — objectives —
  'GET /api/v1/objectives/:key': { ids: [{ in: 'path', name: 'key', kinds: ['spark'] }] },
  'PATCH /api/v1/objectives/:key': {
    ids: [{ in: 'path', name: 'key', kinds: ['spark'] }],
    body: () => ({ stepId: 'business.name', status: 'completed' }),
  },

  // — deploying —
  'POST /api/v1/sparks/:sparkId/deployment': { body: () => ({}) },
  'POST /api/v1/sparks/:sparkId/deployment/rotate': { body: () => ({}) },
  'POST /api/v1/sparks/:sparkId/deployment/origins': { body: () => ({ origin: 'https://shop.example' }) },
  'POST /api/v1/sparks/:sparkId/deployment/origins/remove': { body: () => ({ origin: 'https://shop.example' }) },
  'POST /api/v1/sparks/:sparkId/deployment/site-key': { body: () => ({}) },
  'PUT /api/v1/sparks/:sparkId/deployment/retention': { body: () => ({ days: 30 }) },
  'PATCH /api/v1/sparks/:sparkId/deployment': { body: () => ({ dailyLimit: 150 }) },
  'POST /api/v1/sparks/:sparkId/deployment/preview': { body: () => ({}) },
  'GET /api/v1/sparks/:sparkId/deployment/conversations/:conversationId': {
    ids: [{ in: 'path', name: 'conversationId', kinds: ['widgetConversation'] }],
  },

  // — document sharing (integrations.it.ts) —
  'GET /api/v1/sparks/:sparkId/integrations/:provider/authorize': {
    literals: { provider: 'microsoft' },
    query: () => ({ service: 'sharepoint' }),
  },
  'DELETE /api/v1/sparks/:sparkId/integrations/:provider': { literals: { provider: 'microsoft' } },

  // — unanswered questions —
  'POST /api/v1/sparks/:sparkId/unanswered/:questionId/answer': {
    ids: [{ in: 'path', name: 'questionId', kinds: ['unansweredQuestion'] }],
    body: (w) => ({ answer: `We sell gift cards ${w.marker}.` }),
  },
  'DELETE /api/v1/sparks/:sparkId/unanswered/:questionId/answer': {
    ids: [{ in: 'path', name: 'questionId', kinds: ['unansweredQuestion'] }],
  },
  'POST /api/v1/sparks/:sparkId/unanswered/:questionId/dismiss': {
    ids: [{ in: 'path', name: 'questionId', kinds: ['unansweredQuestion'] }],
  },
  // — answer checks —
  'POST /api/v1/sparks/:sparkId/checks': {
    ids: [{ in: 'body', name: 'messageId', kinds: ['testAnswer'] }],
    body: (w) => ({ messageId: w.ids.testAnswer }),
  },
  'POST /api/v1/sparks/:sparkId/check-runs': { body: () => ({}) },
  'POST /api/v1/sparks/:sparkId/checks/:checkId/approve': {
    ids: [{ in: 'path', name: 'checkId', kinds: ['check'] }],
  },
  'DELETE /api/v1/sparks/:sparkId/checks/:checkId': {
    ids: [{ in: 'path', name: 'checkId', kinds: ['check'] }],
  },
  // — transcripts of judged tests (transcripts.it.ts) —
  'GET /api/v1/sparks/:sparkId/transcripts': {},
  'GET /api/v1/sparks/:sparkId/transcripts/:conversationId': {
    ids: [{ in: 'path', name: 'conversationId', kinds: ['transcript', 'testConversation'] }],
  },
  'DELETE /api/v1/sparks/:sparkId/transcripts/:conversationId': {
    ids: [{ in: 'path', name: 'conversationId', kinds: ['transcript', 'testConversation'] }],
  },
  // — ratings of answers (the visitor's route is under public/widgets) —
  'POST /api/v1/sparks/:sparkId/messages/:messageId/feedback': {
    ids: [{ in: 'path', name: 'messageId', kinds: ['testAnswer'] }],
    body: (w) => ({ rating: 'down', comment: `Wrong ${w.marker}` }),
  },
  // — analytics (analytics.it.ts): one Spark's figures, or the owner's across their Sparks —
  'GET /api/v1/sparks/:sparkId/analytics': { query: () => ({ days: '7', tz: 'Europe/Madrid' }) },
  'GET /api/v1/analytics': { query: () => ({ days: '7', tz: 'Europe/Madrid' }) },

  // — documents —
  'POST /api/v1/bucket': {
    ids: [
      { in: 'form', name: 'sparkId', kinds: ['spark'] },
      { in: 'form', name: 'conversationId', kinds: ['builderConversation'] },
    ],
    form: (w) => ({ sparkId: w.ids.spark, conversationId: w.ids.builderConversation, name: `Again ${w.marker}.pdf` }),
    file: (w) => markedPdf(w.marker),
  },
  'POST /api/v1/llm/load-doc-message': {
    ids: [
      { in: 'body', name: 'sessionId', kinds: ['builderConversation', 'testConversation', 'systemConversation'] },
      { in: 'body', name: 'sparkId', kinds: ['spark'] },
    ],
    body: (w) => ({
      message: { type: 'human', content: `Guide ${w.marker}.pdf` },
      sessionId: w.ids.builderConversation,
      sparkId: w.ids.spark,
    }),
  },

  // — billing —
  'GET /api/v1/billing/subscriptions/:customerId': { ids: [{ in: 'path', name: 'customerId', kinds: ['customer'] }] },
  'POST /api/v1/billing/customers/:customerId/session': {
    ids: [{ in: 'path', name: 'customerId', kinds: ['customer'] }],
    body: () => ({ mode: 'subscription', priceId: 'price_zaphire_month' }),
  },
  'POST /api/v1/billing/customers/:customerId/portal': {
    ids: [{ in: 'path', name: 'customerId', kinds: ['customer'] }],
    body: () => ({}),
  },
  'GET /api/v1/billing/credits/:feature/available': { literals: { feature: 'interactions' } },
  'POST /api/v1/billing/credits/purchase': { body: () => ({ productId: 'prod_itx_100' }) },
  'PUT /api/v1/billing/overage': { body: () => ({ enabled: false, capCents: 0 }) },
  'GET /api/v1/billing/checkout/:sessionId': {
    ids: [{ in: 'path', name: 'sessionId', kinds: ['checkoutSession'] }],
  },
  'POST /api/v1/billing/checkout/:sessionId/pay': {
    ids: [{ in: 'path', name: 'sessionId', kinds: ['checkoutSession'] }],
    body: () => ({}),
  },
  'POST /api/v1/billing/checkout/:sessionId/cancel': {
    ids: [{ in: 'path', name: 'sessionId', kinds: ['checkoutSession'] }],
    body: () => ({}),
  },
};

/** A route's path with `w`'s own ids (and the fixture's literals) in its parameters. */
export function fillPath(path: string, fixture: RouteFixture | undefined, w: World): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const literal = fixture?.literals?.[name];
    if (literal !== undefined) return literal;
    if (fixture?.visitor && name === 'token') return w.deployToken;
    if (fixture?.visitor && name === 'conversationId') return w.ids.widgetConversation;
    const kind = fixture?.ids?.find((s) => s.in === 'path' && s.name === name)?.kinds[0] ?? DEFAULT_PATH_IDS[name];
    return kind ? w.ids[kind] : name;
  });
}

/** The fixture of a route key, by its exact key or a `*` key that covers it. */
export function fixtureFor(key: string): RouteFixture | undefined {
  if (ROUTE_FIXTURES[key]) return ROUTE_FIXTURES[key];
  const wildcard = Object.keys(ROUTE_FIXTURES).find((k) => k.endsWith('*') && key.startsWith(k.slice(0, -1)));
  return wildcard ? ROUTE_FIXTURES[wildcard] : undefined;
}
