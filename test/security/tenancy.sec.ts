import { PASSWORD, startApp, type TestApp } from '../integration/harness';
import { DEFAULT_PATH_IDS, fixtureFor, ROUTE_FIXTURES, type IdSlot, type RouteFixture } from './route-fixtures';
import { declaredInputs, listEndpoints, type Endpoint } from './routes';
import { probe } from './scoreboard';
import {
  buildWorld,
  call,
  documentSharingEnv,
  refreshWorld,
  secretsOf,
  type Got,
  type Sent,
  type World,
} from './world';

/**
 * The tenancy matrix: every route of the running app × its method, from the app's own router, each
 * sent signed out, as the owner, as another user with their own ids, and as that other user with
 * the owner's ids in every place an id goes. See route-fixtures.ts for how a route is filled.
 */
const PREFIX = '/api/v1';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

type Check = [label: string, ok: boolean, seen: string];
const results = {
  coverage: [] as Check[],
  signedOut: [] as Check[],
  cross: [] as Check[],
  own: [] as Check[],
  control: [] as Check[],
  untouched: [] as Check[],
  methods: [] as Check[],
  adminOnly: [] as Check[],
};
const adminPlans: Plan[] = [];

interface Plan {
  endpoint: Endpoint;
  key: string;
  fixture: RouteFixture | undefined;
  slots: IdSlot[];
  literals: Record<string, string>;
}

const short = (got: Got) => `${got.status} ${got.text.slice(0, 240).replace(/\s+/g, ' ')}`;
const is2xx = (status: number) => status >= 200 && status < 300;

function setDotted(target: Record<string, unknown>, dotted: string, value: string): void {
  const parts = dotted.split('.');
  let at = target;
  for (const part of parts.slice(0, -1)) {
    if (typeof at[part] !== 'object' || at[part] === null) at[part] = {};
    at = at[part] as Record<string, unknown>;
  }
  at[parts[parts.length - 1]] = value;
}

/** The request of a route as `w` would send it, with some slots holding other ids. */
async function build(plan: Plan, w: World, overrides: Map<IdSlot, string>, token: string | undefined): Promise<Sent> {
  const value = (slot: IdSlot) => overrides.get(slot) ?? w.ids[slot.kinds[0]];
  const path = plan.endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
    const slot = plan.slots.find((s) => s.in === 'path' && s.name === name);
    return encodeURIComponent(slot ? value(slot) : (plan.literals[name] ?? 'x'));
  });
  const f = plan.fixture;
  const query = f?.query?.(w);
  const json = f?.body?.(w);
  const fields = f?.form?.(w);
  for (const slot of plan.slots) {
    if (slot.optional && !overrides.has(slot)) continue;
    if (slot.in === 'query' && query) query[slot.name] = value(slot);
    if (slot.in === 'body' && json) setDotted(json, slot.name, value(slot));
    if (slot.in === 'form' && fields) fields[slot.name] = value(slot);
  }
  const file = f?.file ? await f.file(w) : undefined;
  return {
    method: plan.endpoint.method,
    path,
    token,
    query,
    json,
    form: fields ? { fields, file, fileName: 'guide.pdf' } : undefined,
  };
}

/** What the owner's data looks like to the owner: it must not change while someone else probes it. */
async function snapshot(base: string, w: World): Promise<string> {
  const token = w.user.access;
  const reads = await Promise.all(
    [
      `/api/v1/sparks/${w.ids.spark}`,
      `/api/v1/sparks/${w.ids.spark}/tests`,
      `/api/v1/sparks/${w.ids.spark}/documents`,
      `/api/v1/objectives/${w.ids.spark}`,
    ].map((path) => call(base, { method: 'GET', path, token })),
  );
  return reads.map((r) => `${r.status} ${r.text}`).join('\n');
}

/** Whether any conversation of `owner` holds what `intruder` wrote. */
async function intruderIn(base: string, owner: World, intruder: World): Promise<string | undefined> {
  for (const kind of ['builderConversation', 'testConversation', 'systemConversation'] as const) {
    const got = await call(base, {
      method: 'GET',
      path: `/api/v1/llm/chat-history/${owner.ids[kind]}`,
      token: owner.user.access,
    });
    if (got.text.includes(intruder.marker)) return kind;
  }
  return undefined;
}

function leaked(got: Got, owner: World, sent: Sent): string | undefined {
  const sentText = JSON.stringify(sent);
  const secrets = [...secretsOf(owner), ...Object.values(owner.ids)].filter((s) => !sentText.includes(s));
  return secrets.find((s) => got.text.includes(s));
}

/** Decides how a route is probed, or records why it cannot be. */
function plan(endpoint: Endpoint, openapi: unknown): Plan | undefined {
  const key = `${endpoint.method} ${endpoint.path}`;
  const fixture = fixtureFor(key);
  const isPublic = endpoint.isPublic ?? true;
  const note = (ok: boolean, seen: string) => results.coverage.push([key, ok, seen]);
  if (isPublic) {
    note(fixture?.public !== undefined, 'is open to signed-out callers: say why in route-fixtures.ts (`public`)');
    return undefined;
  }
  if (fixture?.public !== undefined) {
    note(false, 'route-fixtures.ts calls it public, but it needs a token');
    return undefined;
  }
  const literals = fixture?.literals ?? {};
  if (fixture?.adminOnly !== undefined) {
    const unfilled = [...endpoint.path.matchAll(/:(\w+)/g)].filter(([, name]) => literals[name] === undefined);
    note(unfilled.length === 0, 'an admin-only route: give its path parameters as `literals`');
    if (unfilled.length === 0) adminPlans.push({ endpoint, key, fixture, slots: [], literals });
    return undefined;
  }
  const slots: IdSlot[] = [];
  const problems: string[] = [];
  for (const [, name] of endpoint.path.matchAll(/:(\w+)/g)) {
    if (literals[name] !== undefined) continue;
    const given = fixture?.ids?.find((s) => s.in === 'path' && s.name === name);
    if (given) slots.push(given);
    else if (DEFAULT_PATH_IDS[name]) slots.push({ in: 'path', name, kinds: [DEFAULT_PATH_IDS[name]] });
    else problems.push(`path parameter :${name} is not an id the matrix knows`);
  }
  slots.push(...(fixture?.ids ?? []).filter((s) => s.in !== 'path'));
  const declared = declaredInputs(openapi, endpoint);
  for (const d of declared.ids) {
    if (!slots.some((s) => s.in === d.in && s.name === d.name))
      problems.push(`it takes an id in ${d.in} field ${d.name}`);
  }
  if (!fixture && declared.hasBody) problems.push('it takes a body the matrix cannot make up');
  note(problems.length === 0, `needs a fixture in test/security/route-fixtures.ts: ${problems.join('; ')}`);
  return problems.length === 0 ? { endpoint, key, fixture, slots, literals } : undefined;
}

/** Routes in the order they can be probed: deleting and signing out come last, the most specific first. */
function order(plans: Plan[]): Plan[] {
  const rank = (p: Plan) =>
    p.fixture?.deletesAccount ? 3 : p.fixture?.endsSessions ? 2 : p.endpoint.method === 'DELETE' ? 1 : 0;
  const depth = (p: Plan) => p.endpoint.path.split('/').length;
  return [...plans].sort((a, b) => rank(a) - rank(b) || (rank(a) === 1 ? depth(b) - depth(a) : 0));
}

async function signInAgain(t: TestApp, w: World): Promise<void> {
  const res = await t
    .http()
    .post('/api/v1/auth/login')
    .send({ username: w.user.username, password: PASSWORD })
    .expect(200);
  const access = res.body.data.access_token as string;
  w.user = {
    ...w.user,
    access,
    refresh: res.body.data.refresh_Token as string,
    auth: () => ['Authorization', `Bearer ${access}`],
  };
}

async function probeRoute(t: TestApp, base: string, p: Plan, owner: World, other: World): Promise<void> {
  const key = p.key;
  const none = new Map<IdSlot, string>();

  const anonymous = await call(base, await build(p, other, none, undefined));
  results.signedOut.push([key, anonymous.status === 401, `expected 401, got ${short(anonymous)}`]);

  // The other user with the owner's ids: one slot at a time (the rest their own), then all at once.
  const variants: Array<{ label: string; overrides: Map<IdSlot, string>; ignored: boolean }> = [];
  for (const slot of p.slots) {
    for (const kind of slot.kinds) {
      variants.push({
        label: `${slot.in} ${slot.name} = owner's ${kind}`,
        overrides: new Map([[slot, owner.ids[kind]]]),
        ignored: slot.ignored === true,
      });
    }
  }
  const read = p.slots.filter((s) => !s.ignored);
  if (read.length > 1) {
    variants.push({
      label: `every id the owner's`,
      overrides: new Map(read.map((s) => [s, owner.ids[s.kinds[0]]])),
      ignored: false,
    });
  }
  const before = p.slots.length > 0 ? await snapshot(base, owner) : '';
  for (const v of variants) {
    const sent = await build(p, other, v.overrides, other.user.access);
    const got = await call(base, sent);
    const leak = leaked(got, owner, sent);
    const label = `${key} [${v.label}]`;
    if (v.ignored) {
      results.cross.push([
        label,
        is2xx(got.status) && !leak,
        `expected the caller's own answer, got ${short(got)}${leak ? ` holding ${leak}` : ''}`,
      ]);
    } else {
      results.cross.push([
        label,
        got.status === 404 && !leak,
        `expected 404, got ${short(got)}${leak ? ` holding ${leak}` : ''}`,
      ]);
    }
  }
  if (p.slots.length > 0) {
    const after = await snapshot(base, owner);
    const intruder = await intruderIn(base, owner, other);
    results.untouched.push([
      key,
      before === after && intruder === undefined,
      intruder
        ? `the owner's ${intruder} holds the other user's text`
        : `the owner's data changed:\n${before}\n---\n${after}`,
    ]);
  }

  const works = (status: number) => (p.fixture?.refused ? status === p.fixture.refused.status : is2xx(status));
  const control = await call(base, await build(p, owner, none, owner.user.access));
  results.control.push([key, works(control.status), `the owner's own request answered ${short(control)}`]);

  const ownSent = await build(p, other, none, other.user.access);
  const own = await call(base, ownSent);
  const leak = leaked(own, owner, ownSent);
  results.own.push([key, works(own.status) && !leak, `${short(own)}${leak ? ` holding ${leak}` : ''}`]);

  if (p.fixture?.deletesAccount) return;
  if (p.fixture?.endsSessions) {
    await signInAgain(t, owner);
    await signInAgain(t, other);
  } else if (p.endpoint.method !== 'DELETE') {
    await refreshWorld(t, owner);
    await refreshWorld(t, other);
  }
}

/** An admin-only route: 401 signed out, 403 as either (non-admin) user, nothing of the owner's. */
async function probeAdminOnly(base: string, p: Plan, owner: World, other: World): Promise<void> {
  const none = new Map<IdSlot, string>();
  const anonymous = await call(base, await build(p, other, none, undefined));
  results.signedOut.push([p.key, anonymous.status === 401, `expected 401, got ${short(anonymous)}`]);
  for (const [who, w] of [
    ['the owner', owner],
    ['another user', other],
  ] as const) {
    const sent = await build(p, w, none, w.user.access);
    const got = await call(base, sent);
    const leak = w === other ? leaked(got, owner, sent) : undefined;
    results.adminOnly.push([
      `${p.key} [${who}]`,
      got.status === 403 && !leak,
      `expected 403, got ${short(got)}${leak ? ` holding ${leak}` : ''}`,
    ]);
  }
}

/** Methods a path does not have: as another user with the owner's ids, 404 or 405, never 2xx or 5xx. */
async function probeOtherMethods(base: string, endpoints: Endpoint[], owner: World, other: World): Promise<void> {
  const byPath = new Map<string, Set<string>>();
  for (const e of endpoints) byPath.set(e.path, (byPath.get(e.path) ?? new Set()).add(e.method));
  for (const [path, methods] of byPath) {
    if (!path.startsWith(PREFIX)) continue;
    const filled = path.replace(/:(\w+)/g, (_, name: string) => {
      const kind =
        DEFAULT_PATH_IDS[name] ?? (name === 'id' ? 'builderConversation' : name === 'key' ? 'spark' : undefined);
      return kind ? owner.ids[kind] : name === 'sparkname' ? 'main' : 'google';
    });
    for (const method of METHODS.filter((m) => !methods.has(m))) {
      const got = await call(base, {
        method,
        path: filled,
        token: other.user.access,
        json: method === 'GET' ? undefined : {},
      });
      results.methods.push([
        `${method} ${path}`,
        got.status === 404 || got.status === 405,
        `expected 404 or 405, got ${short(got)}`,
      ]);
    }
  }
}

describe('tenancy matrix (every route × method, generated from the running app)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp(documentSharingEnv());
    const base = await t.url();
    const [owner, other] = await Promise.all([buildWorld(t, 'owner'), buildWorld(t, 'other')]);
    const endpoints = listEndpoints(t.app, PREFIX);
    const openapi = (await call(base, { method: 'GET', path: '/api/docs/openapi.json' })).json;
    const known = new Set(endpoints.map((e) => `${e.method} ${e.path}`));
    for (const key of Object.keys(ROUTE_FIXTURES)) {
      const matches = key.endsWith('*') ? [...known].some((k) => k.startsWith(key.slice(0, -1))) : known.has(key);
      results.coverage.push([`fixture ${key}`, matches, 'names a route the app does not have: remove or rename it']);
    }
    const plans = endpoints.map((e) => plan(e, openapi)).filter((p): p is Plan => p !== undefined);
    await probeOtherMethods(base, endpoints, owner, other);
    for (const p of adminPlans) await probeAdminOnly(base, p, owner, other);
    for (const p of order(plans)) await probeRoute(t, base, p, owner, other);
  }, 600_000);
  afterAll(() => t.close());

  const replay = (checks: Check[]) => (tally: { check(l: string, ok: boolean, seen: string): boolean }) => {
    for (const [label, ok, seen] of checks) tally.check(label, ok, seen);
  };
  probe('every route is known to the matrix (public with a reason, or its ids bound)', replay(results.coverage));
  probe('signed out: every route that needs a token answers 401', replay(results.signedOut));
  probe("another user's ids, slot by slot and all at once: 404 and nothing of theirs", replay(results.cross));
  probe("the owner's data is unchanged after another user's attempts", replay(results.untouched));
  probe("a user's own request works and carries nothing of another user's", replay(results.own));
  probe("the owner's own request works (the ids probed were live)", replay(results.control));
  probe('methods a path does not have: 404 or 405', replay(results.methods));
  probe('admin-only routes: 403 to users who are not admins, nothing of anyone', replay(results.adminOnly));
});
