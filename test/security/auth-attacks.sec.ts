import jwt from 'jsonwebtoken';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import type { Response } from 'supertest';
import {
  codeIn,
  createUser,
  PASSWORD,
  startApp,
  uniqueEmail,
  waitForMail,
  type SignedUser,
  type TestApp,
} from '../integration/harness';
import { tokenKey } from '../../api/src/auth/jwt-options';
import { describeResponse, probe, type Tally } from './scoreboard';

/**
 * Attacks on signing in and on tokens, made over HTTP against the real api: password guessing from
 * one address and from many (behind a trusted proxy, so X-Forwarded-For names the client), code
 * guessing, forged and expired access tokens, tokens of one kind presented as another, and replays
 * of rotated refresh tokens.
 */
const JWT_SECRET = 'security-suite-secret-0123456789abcdef';
/** Access tokens are signed with a key derived from JWT_SECRET for them alone (api/src/auth/jwt-options.ts). */
const ACCESS_KEY = tokenKey(JWT_SECRET, 'access');
const WINDOW_SECONDS = 900;

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

let ipCounter = 0;
/** A client address of its own (documentation ranges, RFC 5737), so no two attacks share a count. */
function newIp(): string {
  ipCounter += 1;
  const n = (process.pid + ipCounter) % 250;
  return `${[192, 198, 203][ipCounter % 3]}.${[0, 51, 0][ipCounter % 3]}.${[2, 100, 113][ipCounter % 3]}.${n + 1}`;
}

function login(t: TestApp, ip: string, username: string, password: string) {
  return t.http().post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ username, password });
}

/** A 429 of the sign-in limits: it says when to come back, within the window. */
function checkLocked(tally: Tally, label: string, res: Response): void {
  const wait = Number(res.headers['retry-after']);
  tally.check(
    label,
    res.status === 429 && Number.isInteger(wait) && wait >= 1 && wait <= WINDOW_SECONDS,
    `expected 429 with Retry-After in 1..${WINDOW_SECONDS}, got ${describeResponse(res)} (Retry-After ${res.headers['retry-after']})`,
  );
}

const profile = (t: TestApp, authorization?: string) => {
  const req = t.http().get('/api/v1/account/profile');
  return authorization === undefined ? req : req.set('Authorization', authorization);
};

const b64url = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

async function userId(username: string): Promise<string> {
  const r = await sql.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [username]);
  return r.rows[0].id;
}

describe('password guessing', () => {
  probe(
    'brute force from one IP: the pair locks after 10 failures, with Retry-After; the owner still gets in',
    async (tally) => {
      const t = await startApp({ JWT_SECRET, TRUST_PROXY: 'loopback' });
      try {
        const u = await createUser(t, { tag: 'brute' });
        const attacker = newIp();
        for (let i = 1; i <= 10; i++) {
          const res = await login(t, attacker, u.username, `Wrong-guess-${i}!`);
          tally.status(`guess ${i} of 10 is checked and refused`, res, [400]);
        }
        for (let i = 11; i <= 15; i++)
          checkLocked(tally, `guess ${i} is locked out`, await login(t, attacker, u.username, `Wrong-guess-${i}!`));
        checkLocked(
          tally,
          'the right password from the locked IP is locked out too',
          await login(t, attacker, u.username, PASSWORD),
        );
        tally.status('the owner from their own IP signs in', await login(t, newIp(), u.username, PASSWORD), [200]);

        // A burst of parallel guesses from a fresh IP: no more than the limit reach the password check.
        const burstIp = newIp();
        const burst = await Promise.all(
          Array.from({ length: 30 }, (_, i) => login(t, burstIp, u.username, `Parallel-guess-${i}!`)),
        );
        const checked = burst.filter((r) => r.status !== 429).length;
        for (const [i, res] of burst.entries()) tally.status(`parallel guess ${i + 1} of 30`, res, [400, 429]);
        tally.check('at most 10 of 30 parallel guesses reach the password check', checked <= 10, `${checked} did`);
      } finally {
        await t.close();
      }
    },
  );

  probe('verification-code guessing: 5 wrong codes burn the code, 10 requests per account lock it', async (tally) => {
    const t = await startApp({ JWT_SECRET });
    try {
      const username = uniqueEmail('codeguess');
      await t
        .http()
        .post('/api/v1/auth/register')
        .send({ username, password: PASSWORD, config: { language: 'en' } })
        .expect(201);
      const code = codeIn(await waitForMail(t, username));
      const wrong = (n: number) => String((Number(code) + n) % 1_000_000).padStart(6, '0');
      const verify = (c: string) => t.http().post('/api/v1/auth/verify-code').send({ username, code: c });
      for (let i = 1; i <= 5; i++) tally.status(`wrong code ${i}`, await verify(wrong(i)), [400]);
      const late = await verify(code);
      tally.check(
        'the right code after 5 wrong ones is refused',
        late.status === 400 && late.body.errors?.[0]?.code === 'INVALID_CODE',
        describeResponse(late),
      );
      for (let i = 7; i <= 10; i++) tally.status(`request ${i} on the account`, await verify(wrong(i)), [400]);
      checkLocked(tally, 'request 11 on the account is locked out', await verify(code));
    } finally {
      await t.close();
    }
  });
});

describe('password spraying', () => {
  probe(
    'one password over many accounts from one IP: refused past the per-IP limit, owners unaffected',
    async (tally) => {
      const t = await startApp({ JWT_SECRET, TRUST_PROXY: 'loopback', AUTH_RATE_IP_MAX: '20' });
      try {
        const owners = await Promise.all([1, 2, 3].map(() => createUser(t, { tag: 'spray' })));
        const targets = [...owners.map((o) => o.username), ...Array.from({ length: 27 }, () => uniqueEmail('sprayed'))];
        const sprayer = newIp();
        let checked = 0;
        for (const [i, username] of targets.entries()) {
          const res = await login(t, sprayer, username, 'Spring2026!');
          if (i < 20) {
            tally.status(`account ${i + 1} of 30 is checked and refused`, res, [400]);
          } else {
            checkLocked(tally, `account ${i + 1} of 30 is refused unread`, res);
          }
          if (res.status !== 429) checked += 1;
        }
        tally.check('at most 20 of 30 sprayed accounts reach the password check', checked <= 20, `${checked} did`);
        for (const o of owners)
          tally.status(
            `owner ${o.username} signs in from their own IP`,
            await login(t, newIp(), o.username, PASSWORD),
            [200],
          );
      } finally {
        await t.close();
      }
    },
  );

  probe(
    'many passwords over one account from many IPs: an account-wide ceiling; the owner’s known IP still gets in',
    async (tally) => {
      const t = await startApp({
        JWT_SECRET,
        TRUST_PROXY: 'loopback',
        AUTH_RATE_ACCOUNT_MAX: '3',
        AUTH_RATE_LOGIN_ACCOUNT_MAX: '12',
      });
      try {
        const u = await createUser(t, { tag: 'distributed' });
        const home = newIp();
        tally.status('the owner signs in from home first', await login(t, home, u.username, PASSWORD), [200]);
        const ips = Array.from({ length: 10 }, newIp);
        const guesses = await Promise.all(
          ips.flatMap((ip, n) => [1, 2, 3, 4].map((k) => login(t, ip, u.username, `Botnet-${n}-${k}!`))),
        );
        for (const [i, res] of guesses.entries()) tally.status(`guess ${i + 1} of 40 from 10 IPs`, res, [400, 429]);
        // Past the ceiling a guess is asked for the e-mailed code (LOGIN_CODE_REQUIRED), its password unread.
        const checked = guesses.filter((r) => r.body.errors?.[0]?.code === 'WRONG_CREDENTIALS').length;
        tally.check('at most 12 of 40 distributed guesses reach the password check', checked <= 12, `${checked} did`);
        const asked = await login(t, newIp(), u.username, PASSWORD);
        tally.check(
          'a new IP, even with the right password, must bring the code e-mailed to the address',
          asked.status === 400 && asked.body.errors?.[0]?.code === 'LOGIN_CODE_REQUIRED',
          describeResponse(asked),
        );
        tally.status('the owner signs in again from home', await login(t, home, u.username, PASSWORD), [200]);
      } finally {
        await t.close();
      }
    },
  );
});

describe('access tokens', () => {
  let t: TestApp;
  let u: SignedUser;
  let other: SignedUser;
  beforeAll(async () => {
    t = await startApp({ JWT_SECRET });
    [u, other] = await Promise.all([createUser(t, { tag: 'jwt' }), createUser(t, { tag: 'jwt-other' })]);
  });
  afterAll(() => t.close());

  probe('forged tokens: wrong key, alg none, alg confusion, tampered sub and tv, malformed', async (tally) => {
    tally.status('the real token works (control)', await profile(t, `Bearer ${u.access}`), [200]);
    const [header, payload, signature] = u.access.split('.');
    const claims = jwt.decode(u.access) as { sub: string; tv: number; iat: number; exp: number };
    const otherId = await userId(other.username);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const body = { sub: claims.sub, tv: claims.tv };
    const forged: Array<[string, string]> = [
      ['HS256 with another key', jwt.sign(body, 'not-the-secret')],
      ['HS512 with another key', jwt.sign(body, 'not-the-secret', { algorithm: 'HS512' })],
      ['alg none, no signature', `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`],
      ['alg none, original signature', `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}`],
      ['alg None (case)', `${b64url({ alg: 'None', typ: 'JWT' })}.${payload}.`],
      ['RS256 with an attacker key', jwt.sign(body, privateKey, { algorithm: 'RS256' })],
      ['HS256 keyed with an RSA public key (alg confusion)', jwt.sign(body, publicPem, { algorithm: 'HS256' })],
      [
        'jku header pointing elsewhere',
        jwt.sign(body, 'not-the-secret', { header: { alg: 'HS256', jku: 'http://attacker.invalid/jwks' } }),
      ],
      ['kid path traversal', jwt.sign(body, 'empty', { header: { alg: 'HS256', kid: '../../../../dev/null' } })],
      [
        'payload sub swapped to another user, original signature',
        `${header}.${b64url({ ...claims, sub: otherId })}.${signature}`,
      ],
      ['payload tv raised, original signature', `${header}.${b64url({ ...claims, tv: claims.tv + 1 })}.${signature}`],
      [
        'payload exp pushed a year, original signature',
        `${header}.${b64url({ ...claims, exp: claims.exp + 31_536_000 })}.${signature}`,
      ],
      ['signature removed', `${header}.${payload}.`],
      ['signature of another token', `${header}.${payload}.${other.access.split('.')[2]}`],
      ['two parts', `${header}.${payload}`],
      ['four parts', `${u.access}.${signature}`],
      ['not base64', '###.###.###'],
      ['an 8 kB token', `${header}.${'A'.repeat(8000)}.${signature}`],
    ];
    for (const [label, token] of forged) tally.status(label, await profile(t, `Bearer ${token}`), [401]);
    const elsewhere: Array<[string, () => ReturnType<typeof profile>]> = [
      ['no Authorization header', () => profile(t)],
      ['empty bearer', () => profile(t, 'Bearer ')],
      ['token without the Bearer scheme', () => profile(t, u.access)],
      ['Basic scheme', () => profile(t, `Basic ${Buffer.from(`${u.username}:${PASSWORD}`).toString('base64')}`)],
      ['token in the query string', () => t.http().get('/api/v1/account/profile').query({ access_token: u.access })],
      ['token in a cookie', () => t.http().get('/api/v1/account/profile').set('Cookie', `access_token=${u.access}`)],
    ];
    for (const [label, send] of elsewhere) tally.status(label, await send(), [401]);
  });

  probe('one key per kind of token, and every token must expire', async (tally) => {
    const { sub, tv } = jwt.decode(u.access) as { sub: string; tv: number };
    const now = Math.floor(Date.now() / 1000);
    tally.status('the real token works (the claims below are live)', await profile(t, `Bearer ${u.access}`), [200]);
    tally.status(
      'the same claims signed again with the access key work',
      await profile(t, `Bearer ${jwt.sign({ sub, tv, exp: now + 600 }, ACCESS_KEY)}`),
      [200],
    );
    const signed: Array<[string, string]> = [
      ['no expiry, signed with the access key', jwt.sign({ sub, tv }, ACCESS_KEY)],
      ['no expiry, not even issued-at', jwt.sign({ sub, tv }, ACCESS_KEY, { noTimestamp: true })],
      ['signed with JWT_SECRET itself', jwt.sign({ sub, tv, exp: now + 600 }, JWT_SECRET)],
      ['signed with the visitor key', jwt.sign({ sub, tv, exp: now + 600 }, tokenKey(JWT_SECRET, 'visitor'))],
      [
        'signed with the admin-session key',
        jwt.sign({ sub, tv, exp: now + 600 }, tokenKey(JWT_SECRET, 'admin-session')),
      ],
      [
        'signed with the integration-state key',
        jwt.sign({ sub, tv, exp: now + 600 }, tokenKey(JWT_SECRET, 'integration-state')),
      ],
    ];
    for (const [label, token] of signed) tally.status(label, await profile(t, `Bearer ${token}`), [401]);
  });

  probe('expired and stale tokens signed with the real key', async (tally) => {
    const claims = jwt.decode(u.access) as { sub: string; tv: number };
    const now = Math.floor(Date.now() / 1000);
    const signed: Array<[string, string]> = [
      ['expired a second ago', jwt.sign({ ...claims, exp: now - 1 }, ACCESS_KEY)],
      ['expired a day ago', jwt.sign({ ...claims, exp: now - 86_400 }, ACCESS_KEY)],
      ['not valid before tomorrow', jwt.sign({ ...claims, nbf: now + 86_400, exp: now + 600 }, ACCESS_KEY)],
      ['an older token version', jwt.sign({ ...claims, tv: claims.tv - 1, exp: now + 600 }, ACCESS_KEY)],
      ['a newer token version', jwt.sign({ ...claims, tv: claims.tv + 1, exp: now + 600 }, ACCESS_KEY)],
      ['no token version', jwt.sign({ sub: claims.sub, exp: now + 600 }, ACCESS_KEY)],
      ['token version as text', jwt.sign({ sub: claims.sub, tv: String(claims.tv), exp: now + 600 }, ACCESS_KEY)],
      ['a user that does not exist', jwt.sign({ sub: randomUUID(), tv: 0, exp: now + 600 }, ACCESS_KEY)],
      ['a subject that is not an id', jwt.sign({ sub: "x' OR '1'='1", tv: 0, exp: now + 600 }, ACCESS_KEY)],
      ['no subject', jwt.sign({ tv: claims.tv, exp: now + 600 }, ACCESS_KEY)],
    ];
    for (const [label, token] of signed) tally.status(label, await profile(t, `Bearer ${token}`), [401]);

    // Sign-out and a password reset end every token issued before them.
    const victim = await createUser(t, { tag: 'jwt-logout' });
    await t
      .http()
      .post('/api/v1/auth/logout')
      .set(...victim.auth())
      .send({})
      .expect(200);
    tally.status('an access token after logout', await profile(t, `Bearer ${victim.access}`), [401]);
    tally.status(
      'a refresh token after logout',
      await t.http().post('/api/v1/auth/refresh-token').send({ refresh_token: victim.refresh }),
      [401],
    );

    const reset = await createUser(t, { tag: 'jwt-reset' });
    await t.http().post('/api/v1/users/forgot-password').send({ email: reset.username }).expect(200);
    const link = await waitForMail(t, reset.username, (m) => m.text.includes('reset-password'));
    const token = /reset-password\?token=([\w-]+)/.exec(link.text)![1];
    await t
      .http()
      .post('/api/v1/users/reset-password')
      .set('Authorization', `Bearer ${token}`)
      .send({ newPassword: 'N3w-secret-pass!' })
      .expect(200);
    tally.status('an access token after a password reset', await profile(t, `Bearer ${reset.access}`), [401]);
    tally.status(
      'a refresh token after a password reset',
      await t.http().post('/api/v1/auth/refresh-token').send({ refresh_token: reset.refresh }),
      [401],
    );
  });

  probe(
    'wrong-type tokens: refresh, access, reset and sign-in tokens each refused where another is expected',
    async (tally) => {
      const victim = await createUser(t, { tag: 'wrongtype' });
      await t.http().post('/api/v1/users/forgot-password').send({ email: victim.username }).expect(200);
      const mail = await waitForMail(t, victim.username, (m) => m.text.includes('reset-password'));
      const resetToken = /reset-password\?token=([\w-]+)/.exec(mail.text)![1];
      const refresh = (token: string) => t.http().post('/api/v1/auth/refresh-token').send({ refresh_token: token });
      const resetWith = (token: string) =>
        t
          .http()
          .post('/api/v1/users/reset-password')
          .set('Authorization', `Bearer ${token}`)
          .send({ newPassword: 'Hijacked-pass-1!' });
      const exchange = (token: string) =>
        t.http().get('/api/v1/auth/exchange-token').set('Authorization', `Bearer ${token}`);

      tally.status('a refresh token as the bearer', await profile(t, `Bearer ${victim.refresh}`), [401]);
      tally.status('a reset token as the bearer', await profile(t, `Bearer ${resetToken}`), [401]);
      tally.status('an access token as the refresh token', await refresh(victim.access), [400, 401]);
      tally.status('a reset token as the refresh token', await refresh(resetToken), [401]);
      tally.status('an access token as the reset token', await resetWith(victim.access), [400]);
      tally.status('a refresh token as the reset token', await resetWith(victim.refresh), [400]);
      tally.status('an access token as the sign-in exchange token', await exchange(victim.access), [400]);
      tally.status('a refresh token as the sign-in exchange token', await exchange(victim.refresh), [400]);
      tally.status('a reset token as the sign-in exchange token', await exchange(resetToken), [400]);
      tally.status(
        'the password is unchanged after all that',
        await login(t, '127.0.0.1', victim.username, PASSWORD),
        [200],
      );
      // The reset token, tried everywhere else, was not spent: it still resets, once.
      tally.status('the reset token still resets', await resetWith(resetToken), [200]);
      tally.status('the reset token does not reset twice', await resetWith(resetToken), [400]);

      const stale = await createUser(t, { tag: 'wrongtype-expired' });
      await t.http().post('/api/v1/users/forgot-password').send({ email: stale.username }).expect(200);
      const staleMail = await waitForMail(t, stale.username, (m) => m.text.includes('reset-password'));
      const staleToken = /reset-password\?token=([\w-]+)/.exec(staleMail.text)![1];
      await sql.query(`UPDATE one_time_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
        await userId(stale.username),
      ]);
      tally.status('an expired reset token', await resetWith(staleToken), [400]);
    },
  );
});

describe('refresh tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ JWT_SECRET });
  });
  afterAll(() => t.close());
  const refresh = (token: string) => t.http().post('/api/v1/auth/refresh-token').send({ refresh_token: token });

  probe(
    'replays of a rotated refresh token: one hand-over in the grace window, then the family is revoked',
    async (tally) => {
      const u = await createUser(t, { tag: 'replay' });
      const first = await refresh(u.refresh);
      tally.status('the first rotation', first, [200]);
      const again = await refresh(u.refresh);
      tally.check(
        'a replay within the grace window gets the same successor',
        again.status === 200 && JSON.stringify(again.body.data) === JSON.stringify(first.body.data),
        describeResponse(again),
      );
      tally.status('a third presentation is refused', await refresh(u.refresh), [401]);
      tally.status(
        'the successor is revoked with its family',
        await refresh(first.body.data.refresh_token as string),
        [401],
      );

      // Ten replays at once of a token just rotated: at most one gets the successor.
      const v = await createUser(t, { tag: 'replay-burst' });
      const rotated = await refresh(v.refresh);
      tally.status('the rotation before the burst', rotated, [200]);
      const burst = await Promise.all(Array.from({ length: 10 }, () => refresh(v.refresh)));
      for (const [i, res] of burst.entries()) tally.status(`parallel replay ${i + 1} of 10`, res, [200, 401]);
      const handed = burst.filter((r) => r.status === 200);
      tally.check('at most one parallel replay gets a pair', handed.length <= 1, `${handed.length} did`);
      tally.check(
        'what a replay gets is the successor itself, not a new pair',
        handed.every((r) => JSON.stringify(r.body.data) === JSON.stringify(rotated.body.data)),
        handed.map((r) => describeResponse(r)).join('; '),
      );
    },
  );

  probe('a replay after the grace window revokes only its own family', async (tally) => {
    const u = await createUser(t, { tag: 'replay-late' });
    const otherSession = await t
      .http()
      .post('/api/v1/auth/login')
      .send({ username: u.username, password: PASSWORD })
      .expect(200);
    const first = await refresh(u.refresh);
    tally.status('the rotation', first, [200]);
    // The grace window (10 s) is over: the rotation is dated back rather than waited for.
    await sql.query(
      `UPDATE refresh_tokens SET rotated_at = rotated_at - interval '11 seconds' WHERE rotated_at IS NOT NULL AND user_id = $1`,
      [await userId(u.username)],
    );
    tally.status('the replay after the window', await refresh(u.refresh), [401]);
    tally.status('its successor is revoked', await refresh(first.body.data.refresh_token as string), [401]);
    tally.status(
      'the user’s other session is untouched',
      await refresh(otherSession.body.data.refresh_Token as string),
      [200],
    );

    const expiring = await createUser(t, { tag: 'refresh-expired' });
    await sql.query(`UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
      await userId(expiring.username),
    ]);
    tally.status('an expired refresh token', await refresh(expiring.refresh), [401]);
    for (const [label, token] of [
      ['an unknown refresh token', randomUUID()],
      ['an empty refresh token', ''],
      ['a refresh token of 200 characters', 'r'.repeat(200)],
    ] as const) {
      tally.status(label, await refresh(token), [401]);
    }
  });
});
