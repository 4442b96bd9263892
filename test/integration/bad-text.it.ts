import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { makePdf } from './fixtures/pdfs';
import { createSpark, createTest, createUser } from './factories';
import { startApp, uniqueEmail, type SignedUser, type TestApp } from './harness';

/**
 * One bad character, as each transport carries it: inside a JSON string (an escape), in a query
 * string (percent-escapes of its bytes) and in a multipart form field (raw bytes). A lone
 * surrogate has no UTF-8 form; a client that sends one anyway sends the bytes of its 3-byte
 * encoding (ED A0 80), which are not UTF-8.
 */
interface Bad {
  label: string;
  json: string;
  query: string;
  bytes: Buffer;
}
const BAD: Bad[] = [
  { label: 'NUL', json: '\u0000', query: '%00', bytes: Buffer.from([0x00]) },
  { label: 'lone surrogate', json: '\uD800', query: '%ED%A0%80', bytes: Buffer.from([0xed, 0xa0, 0x80]) },
];

interface Ctx {
  user: SignedUser;
  sparkId: string;
  testId: string;
  conversationId: string;
}

interface Case {
  name: string;
  field: string;
  send: (ctx: Ctx, bad: Bad) => Promise<Response>;
}

describe('NUL characters and lone surrogates are refused at validation (400, never 500)', () => {
  let t: TestApp;
  let ctx: Ctx;
  let pdf: Buffer;

  beforeAll(async () => {
    t = await startApp();
    pdf = await makePdf([{ heading: 'Horario', paragraphs: [['Abrimos de 9 a 18 h.']] }]);
    const user = await createUser(t, { tag: 'badtext' });
    const sparkId = (await createSpark(t, user, { name: 'Tienda' }))._id;
    const testId = (await createTest(t, user, sparkId, { name: 'Prueba' }))._id;
    const history = await t
      .http()
      .get(`/api/v1/sparks/${sparkId}/tests/${testId}/conversation`)
      .set(...user.auth())
      .expect(200);
    ctx = { user, sparkId, testId, conversationId: history.body.data.sessionId as string };
  });
  afterAll(async () => {
    await t.close();
  });

  const json = (method: 'post' | 'patch', path: string, body: object, user?: SignedUser) => {
    const req = t.http()[method](path);
    if (user) void req.set(...user.auth());
    return req.send(body);
  };
  const get = (path: string, user?: SignedUser) => {
    const req = t.http().get(path);
    if (user) void req.set(...user.auth());
    return req;
  };

  /** A multipart upload built byte by byte, so that a field can carry bytes that are not UTF-8. */
  const upload = (c: Ctx, fields: Record<string, Buffer | string>) => {
    const boundary = `----sparks${randomUUID()}`;
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(fields)) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`));
      parts.push(Buffer.isBuffer(value) ? value : Buffer.from(value), Buffer.from('\r\n'));
    }
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="guia.pdf"\r\n` +
          'Content-Type: application/pdf\r\n\r\n',
      ),
      pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    );
    return t
      .http()
      .post('/api/v1/bucket')
      .set(...c.user.auth())
      .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
      .send(Buffer.concat(parts));
  };
  const text = (b: Bad, before = 'Hola', after = 'mundo') => `${before}${b.json}${after}`;
  const bytes = (b: Bad, before = 'Hola', after = 'mundo') =>
    Buffer.concat([Buffer.from(before), b.bytes, Buffer.from(after)]);
  const q = (b: Bad) => `Hola${b.query}mundo`;
  const email = (b: Bad) => `a${b.json}b@example.com`;

  const CASES: Case[] = [
    {
      name: 'Spark name (create)',
      field: 'name',
      send: (c, b) => json('post', '/api/v1/sparks', { name: text(b) }, c.user),
    },
    {
      name: 'initial message',
      field: 'options.initialMessage',
      send: (c, b) => json('post', '/api/v1/sparks', { options: { initialMessage: text(b) } }, c.user),
    },
    {
      name: 'Spark name (rename)',
      field: 'name',
      send: (c, b) => json('patch', `/api/v1/sparks/${c.sparkId}`, { name: text(b) }, c.user),
    },
    {
      name: 'profile first name',
      field: 'firstname',
      send: (c, b) => json('patch', '/api/v1/account/profile', { firstname: text(b) }, c.user),
    },
    {
      name: 'profile last name',
      field: 'lastname',
      send: (c, b) => json('patch', '/api/v1/account/profile', { lastname: text(b) }, c.user),
    },
    {
      name: 'a key of the profile',
      field: 'config.la\uFFFDng',
      send: (c, b) => json('patch', '/api/v1/account/profile', { config: { [`la${b.json}ng`]: 'es' } }, c.user),
    },
    {
      name: 'test name (create)',
      field: 'name',
      send: (c, b) => json('post', `/api/v1/sparks/${c.sparkId}/tests`, { name: text(b) }, c.user),
    },
    {
      name: 'test name (rename)',
      field: 'name',
      send: (c, b) => json('patch', `/api/v1/sparks/${c.sparkId}/tests/${c.testId}`, { name: text(b) }, c.user),
    },
    {
      name: 'test error report',
      field: 'error',
      send: (c, b) => json('post', `/api/v1/sparks/${c.sparkId}/tests/${c.testId}/error`, { error: text(b) }, c.user),
    },
    {
      name: 'test chat input (JSON)',
      field: 'input.text',
      send: (c, b) =>
        json('post', `/api/v1/sparks/${c.sparkId}/chat/${c.testId}`, { input: { text: text(b) } }, c.user),
    },
    {
      name: 'builder chat input (JSON)',
      field: 'input.text',
      send: (c, b) => json('post', `/api/v1/sparks/${c.sparkId}/messages`, { input: { text: text(b) } }, c.user),
    },
    {
      name: 'test chat input (event stream query)',
      field: 'input.text',
      send: (c, b) => get(`/api/v1/sparks/${c.sparkId}/chat/${c.testId}?input.text=${q(b)}`, c.user),
    },
    {
      name: 'builder chat input (event stream query)',
      field: 'input.text',
      send: (c, b) => get(`/api/v1/sparks/${c.sparkId}/chat?input.text=${q(b)}`, c.user),
    },
    {
      name: 'system assistant input (event stream query)',
      field: 'input.text',
      send: (c, b) => get(`/api/v1/spark-sys/main/chat?input.text=${q(b)}`, c.user),
    },
    {
      name: 'objective step id',
      field: 'stepId',
      send: (c, b) => json('patch', '/api/v1/objectives/profile', { stepId: text(b), status: 'completed' }, c.user),
    },
    {
      name: 'document-message check',
      field: 'message.content',
      send: (c, b) =>
        json('post', '/api/v1/llm/load-doc-message', { message: { type: 'human', content: text(b) } }, c.user),
    },
    {
      name: 'register username',
      field: 'username',
      send: (_c, b) => json('post', '/api/v1/auth/register', { username: email(b), password: 'Sup3r-secret!' }),
    },
    {
      name: 'register password',
      field: 'password',
      send: (_c, b) =>
        json('post', '/api/v1/auth/register', { username: uniqueEmail('bt'), password: text(b, 'Sup3r-', '!') }),
    },
    {
      name: 'register e-mail',
      field: 'email',
      send: (_c, b) =>
        json('post', '/api/v1/auth/register', {
          username: uniqueEmail('bt'),
          email: email(b),
          password: 'Sup3r-secret!',
        }),
    },
    {
      name: 'login username',
      field: 'username',
      send: (_c, b) => json('post', '/api/v1/auth/login', { username: email(b), password: 'x' }),
    },
    {
      name: 'login password',
      field: 'password',
      send: (c, b) => json('post', '/api/v1/auth/login', { username: c.user.username, password: text(b) }),
    },
    {
      name: 'send-code username',
      field: 'username',
      send: (_c, b) => json('post', '/api/v1/auth/send-code', { username: email(b) }),
    },
    {
      name: 'verify-code username',
      field: 'username',
      send: (_c, b) => json('post', '/api/v1/auth/verify-code', { username: email(b), code: '123456' }),
    },
    {
      name: 'verify-code code',
      field: 'code',
      send: (c, b) => json('post', '/api/v1/auth/verify-code', { username: c.user.username, code: `123${b.json}456` }),
    },
    {
      name: 'forgot-password e-mail',
      field: 'email',
      send: (_c, b) => json('post', '/api/v1/users/forgot-password', { email: email(b) }),
    },
    {
      name: 'refresh token',
      field: 'refresh_token',
      send: (_c, b) => json('post', '/api/v1/auth/refresh-token', { refresh_token: text(b) }),
    },
    { name: 'dev outbox ?to=', field: 'to', send: (_c, b) => get(`/api/v1/dev/outbox?to=a${b.query}b@example.com`) },
    {
      name: 'upload name',
      field: 'name',
      send: (c, b) => upload(c, { sparkId: c.sparkId, name: bytes(b, 'guia', '.pdf') }),
    },
    {
      name: 'upload sparkId',
      field: 'sparkId',
      send: (c, b) => upload(c, { sparkId: Buffer.concat([Buffer.from(c.sparkId), b.bytes]) }),
    },
    {
      name: 'upload conversationId',
      field: 'conversationId',
      send: (c, b) =>
        upload(c, { sparkId: c.sparkId, conversationId: Buffer.concat([b.bytes, Buffer.from(c.conversationId)]) }),
    },
  ];

  const table = CASES.flatMap((c) => BAD.map((b) => [`${c.name} — ${b.label}`, c, b] as const));

  it.each(table)('%s', async (_label, c, b) => {
    const res = await c.send(ctx, b);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 400,
      body: {
        statusCode: 400,
        errors: [
          {
            code: 'INVALID_CHARACTERS',
            field: c.field,
            message:
              'This text contains a character that is not allowed (a null character or a broken Unicode sequence)',
          },
        ],
      },
    });
  });

  it('refuses a path parameter the same way', async () => {
    const nul = await get('/api/v1/auth/service/goo%00gle/login').expect(400);
    expect(nul.body.errors).toEqual([expect.objectContaining({ code: 'INVALID_CHARACTERS', field: 'provider' })]);
    // Escapes that are not UTF-8 cannot even be decoded, so no parameter can be named.
    const surrogate = await get(`/api/v1/sparks/${ctx.sparkId}%ED%A0%80`, ctx.user).expect(400);
    expect(surrogate.body.errors).toEqual([expect.objectContaining({ code: 'INVALID_CHARACTERS' })]);
  });

  it('says so in the caller’s language', async () => {
    const res = await json('post', '/api/v1/auth/login', { username: 'a\u0000b@example.com', password: 'x' })
      .set('Accept-Language', 'es')
      .expect(400);
    expect(res.body.errors[0]).toEqual({
      code: 'INVALID_CHARACTERS',
      field: 'username',
      message: 'Este texto contiene un carácter no permitido (un carácter nulo o una secuencia Unicode rota)',
    });
  });

  it('refuses a JSON body whose bytes are not UTF-8', async () => {
    const body = Buffer.concat([Buffer.from('{"name":"Tienda'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    // fetch sends the bytes as they are (supertest would serialise a Buffer as JSON).
    const res = await fetch(`${await t.url()}/api/v1/sparks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ctx.user.access}` },
      body,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ code: string }> }).errors[0].code).toBe('INVALID_CHARACTERS');
  });

  it('still asks who you are first: an anonymous bad body is a 401', async () => {
    await json('post', '/api/v1/sparks', { name: 'a\u0000' }).expect(401);
  });

  it('keeps what was saved: a refused rename leaves the Spark as it was', async () => {
    const spark = () => get(`/api/v1/sparks/${ctx.sparkId}`, ctx.user).expect(200);
    const profile = () => get('/api/v1/account/profile', ctx.user).expect(200);
    const before = { spark: (await spark()).body.data, profile: (await profile()).body.data };
    for (const b of BAD) {
      await json('patch', `/api/v1/sparks/${ctx.sparkId}`, { name: text(b), pin: true }, ctx.user).expect(400);
      await json('patch', '/api/v1/account/profile', { firstname: 'Ana', lastname: text(b) }, ctx.user).expect(400);
    }
    expect({ spark: (await spark()).body.data, profile: (await profile()).body.data }).toEqual(before);
  });

  it('lets ordinary text through, emoji and accents included', async () => {
    const name = 'Café 😀 漢字 \uFFFD';
    const res = await json('post', '/api/v1/sparks', { name }, ctx.user).expect(201);
    expect(res.body.data.name).toBe(name);
    await get(`/api/v1/dev/outbox?to=${encodeURIComponent('ñandú@example.com')}`).expect(200);
  });
});
