import type { Response } from 'supertest';
import { z } from 'zod';
import { listEndpoints, operationOf } from '../security/routes';
import { createUser, startApp, type SignedUser, type TestApp } from './harness';

/**
 * The OpenAPI document tells what every route answers (its zod schema of `@sparks/contracts`, in the
 * envelope, see `ApiZodResponse`). Here real answers of representative routes are checked against the
 * DOCUMENT — read back from /api/docs/openapi.json and turned into a validator — so that a schema that
 * drifts from what its route returns (a field added, renamed, made nullable) fails here.
 */

interface DocResponse {
  content?: Record<string, { schema?: unknown }>;
}
interface Doc {
  paths: Record<string, Record<string, { responses?: Record<string, DocResponse> }>>;
}

describe('the answers match the OpenAPI document', () => {
  let t: TestApp;
  let doc: Doc;
  let user: SignedUser;

  beforeAll(async () => {
    t = await startApp();
    doc = (await t.http().get('/api/docs/openapi.json').expect(200)).body as Doc;
    user = await createUser(t, { tag: 'contracts' });
  });
  afterAll(() => t.close());

  /** `res` is what the document says `method template` answers with its status. */
  function expectDocumented(method: string, template: string, res: Response): void {
    const route = `${method.toUpperCase()} ${template} → ${res.status}`;
    const schema =
      doc.paths[template]?.[method]?.responses?.[String(res.status)]?.content?.['application/json']?.schema;
    expect({ route, documented: schema !== undefined }).toEqual({ route, documented: true });
    const result = z.fromJSONSchema(schema as never, { defaultTarget: 'openapi-3.0' }).safeParse(res.body);
    expect({ route, issues: result.success ? [] : result.error.issues }).toEqual({ route, issues: [] });
  }

  it('documents the success answer of every route', () => {
    const missing: string[] = [];
    for (const endpoint of listEndpoints(t.app, '/api/v1')) {
      if (endpoint.isPublic === undefined) continue; // not a Nest handler (the documentation's own pages)
      const op = operationOf(doc, endpoint) as { responses?: Record<string, DocResponse> } | undefined;
      const responses = op?.responses ?? {};
      const success = Object.entries(responses).filter(([s]) => /^[23]\d\d$/.test(s));
      const described = success.some(
        ([status, r]) => status.startsWith('3') || Object.values(r.content ?? {})[0]?.schema,
      );
      if (!described) missing.push(`${endpoint.method} ${endpoint.path}`);
    }
    expect(missing).toEqual([]);
  });

  it('answers accounts, Sparks, tests, objectives, documents, conversations and deployments as documented', async () => {
    const auth = user.auth();
    const login = await t.http().post('/api/v1/auth/login').send({ username: user.username, password: user.password });
    expectDocumented('post', '/api/v1/auth/login', login);
    expectDocumented(
      'get',
      '/api/v1/account/profile',
      await t
        .http()
        .get('/api/v1/account/profile')
        .set(...auth),
    );
    expectDocumented('get', '/api/v1/auth/providers', await t.http().get('/api/v1/auth/providers'));
    expectDocumented('get', '/api/v1/auth/support', await t.http().get('/api/v1/auth/support'));

    const created = await t
      .http()
      .post('/api/v1/sparks')
      .set(...auth)
      .send({ name: 'Contracts' });
    expectDocumented('post', '/api/v1/sparks', created);
    const sparkId = (created.body as { data: { _id: string } }).data._id;
    expectDocumented(
      'get',
      '/api/v1/sparks',
      await t
        .http()
        .get('/api/v1/sparks')
        .set(...auth),
    );
    expectDocumented(
      'patch',
      '/api/v1/sparks/{sparkId}',
      await t
        .http()
        .patch(`/api/v1/sparks/${sparkId}`)
        .set(...auth)
        .send({ pin: true }),
    );

    const test = await t
      .http()
      .post(`/api/v1/sparks/${sparkId}/tests`)
      .set(...auth)
      .send({ name: 'First' });
    expectDocumented('post', '/api/v1/sparks/{sparkId}/tests', test);
    const testId = (test.body as { data: { _id: string } }).data._id;
    expectDocumented(
      'get',
      '/api/v1/sparks/{sparkId}/tests',
      await t
        .http()
        .get(`/api/v1/sparks/${sparkId}/tests`)
        .set(...auth),
    );
    expectDocumented(
      'get',
      '/api/v1/objectives/{key}',
      await t
        .http()
        .get(`/api/v1/objectives/${sparkId}`)
        .set(...auth),
    );
    expectDocumented(
      'get',
      '/api/v1/sparks/{sparkId}/documents',
      await t
        .http()
        .get(`/api/v1/sparks/${sparkId}/documents`)
        .set(...auth),
    );
    expectDocumented(
      'get',
      '/api/v1/sparks/{sparkId}/conversation',
      await t
        .http()
        .get(`/api/v1/sparks/${sparkId}/conversation`)
        .set(...auth),
    );
    expectDocumented(
      'delete',
      '/api/v1/sparks/{sparkId}/tests/{testId}',
      await t
        .http()
        .delete(`/api/v1/sparks/${sparkId}/tests/${testId}`)
        .set(...auth),
    );
    expectDocumented(
      'get',
      '/api/v1/sparks/{sparkId}/deployment',
      await t
        .http()
        .get(`/api/v1/sparks/${sparkId}/deployment`)
        .set(...auth),
    );
    expectDocumented(
      'post',
      '/api/v1/sparks/{sparkId}/deployment/preview',
      await t
        .http()
        .post(`/api/v1/sparks/${sparkId}/deployment/preview`)
        .set(...auth),
    );
    expectDocumented('get', '/api/v1/health', await t.http().get('/api/v1/health'));
  });

  it('fails an answer the document does not describe', () => {
    const res = { status: 200, body: { data: { google: 'yes' } } } as unknown as Response;
    expect(() => expectDocumented('get', '/api/v1/auth/providers', res)).toThrow();
    const extra = { status: 200, body: { data: { google: true, facebook: true } } } as unknown as Response;
    expect(() => expectDocumented('get', '/api/v1/auth/providers', extra)).toThrow();
  });
});
