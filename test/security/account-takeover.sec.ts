import { Pool } from 'pg';
import {
  codeIn,
  createUser,
  startApp,
  uniqueEmail,
  waitForMail,
  type OutboxMail,
  type TestApp,
} from '../integration/harness';
import { describeResponse, probe, type Tally } from './scoreboard';

/**
 * Taking an account without its mailbox (issue 30): a stranger signs up with an address that is not
 * theirs, or asks for reset links, and the owner then claims the address the ways the product offers.
 * Nothing the stranger chose may sign in afterwards, and an older reset link never outlives a reset.
 */
const JWT_SECRET = 'security-suite-secret-0123456789abcdef';
const STRANGER = 'Str4nger-chose-it!';
const OWNER = 'Own3r-chose-this!';

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const adminAddress = uniqueEmail('takeover-admin');

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ JWT_SECRET, ADMIN_EMAILS: adminAddress });
});
afterAll(() => t.close());

const register = (username: string, password: string) =>
  t
    .http()
    .post('/api/v1/auth/register')
    .send({ username, password, config: { language: 'en' } });
const login = (username: string, password: string) => t.http().post('/api/v1/auth/login').send({ username, password });
const verify = (username: string, code: string, password?: string) =>
  t
    .http()
    .post('/api/v1/auth/verify-code')
    .send({ username, code, ...(password ? { password } : {}) });
const adminMe = (access: string) => t.http().get('/api/v1/admin/me').set('Authorization', `Bearer ${access}`);
const resetToken = (mail: OutboxMail) => /reset-password\?token=([\w-]+)/.exec(mail.text)![1];
const reset = (token: string, newPassword: string) =>
  t.http().post('/api/v1/users/reset-password').set('Authorization', `Bearer ${token}`).send({ newPassword });

/** Every mail to `to`, newest first. */
async function mails(to: string): Promise<OutboxMail[]> {
  return (await t.http().get('/api/v1/dev/outbox').query({ to })).body.data as OutboxMail[];
}

async function newMail(to: string, seen: number, match: (m: OutboxMail) => boolean): Promise<OutboxMail> {
  for (let i = 0; i < 150; i += 1) {
    const all = await mails(to);
    if (all.length > seen && match(all[0])) return all[0];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no new mail to ${to}`);
}

function refused(tally: Tally, label: string, res: { status: number; body?: unknown; text?: string }, code: string) {
  const body = res.body as { errors?: Array<{ code?: string }> } | undefined;
  tally.check(
    label,
    res.status === 400 && body?.errors?.[0]?.code === code,
    `expected 400 ${code}, got ${describeResponse(res)}`,
  );
}

/** The stranger signs up first; answers the code their sign-up mailed to the owner. */
async function strangerSignsUp(username: string): Promise<string> {
  await register(username, STRANGER).expect(201);
  return codeIn(await waitForMail(t, username));
}

/** After the owner's claim: the stranger's password opens nothing, the owner's does, and admin follows the address. */
async function strangerLocksOut(tally: Tally, username: string, admin: boolean) {
  refused(tally, 'the stranger’s password is refused', await login(username, STRANGER), 'WRONG_CREDENTIALS');
  const owner = await login(username, OWNER);
  tally.status('the owner signs in with their own password', owner, [200]);
  if (owner.status === 200) {
    const me = await adminMe(owner.body.data.access_token as string);
    tally.check(
      'the owner is an admin exactly when the address is listed',
      me.body.data?.admin === admin,
      describeResponse(me),
    );
  }
}

describe('pre-registration takeover', () => {
  probe(
    'the owner verifies with the code a stranger’s sign-up mailed: the stranger’s password is gone',
    async (tally) => {
      const username = adminAddress;
      const code = await strangerSignsUp(username);
      refused(
        tally,
        'the stranger cannot sign in before the address is proved',
        await login(username, STRANGER),
        'NOT_VERIFIED',
      );
      const verified = await verify(username, code);
      tally.status('the owner’s code verifies and signs them in', verified, [200]);
      refused(
        tally,
        'the stranger’s password is refused after the owner verified',
        await login(username, STRANGER),
        'WRONG_CREDENTIALS',
      );
      if (verified.status === 200) {
        const me = await adminMe(verified.body.data.access_token as string);
        tally.check('the owner, verified, is the listed admin', me.body.data?.admin === true, describeResponse(me));
      }
      const stored = await sql.query<{ password_hash: string | null }>(
        'SELECT password_hash FROM users WHERE username = $1',
        [username],
      );
      tally.check(
        'no password is stored until the owner chooses one',
        stored.rows[0]?.password_hash === null,
        JSON.stringify(stored.rows),
      );
      // The owner chooses a password through forgot-password, which now answers for them.
      const seen = (await mails(username)).length;
      tally.status(
        'forgot-password answers the owner',
        await t.http().post('/api/v1/users/forgot-password').send({ email: username }),
        [200],
      );
      const link = resetToken(await newMail(username, seen, (m) => m.text.includes('reset-password')));
      tally.status('the owner sets a password of their own', await reset(link, OWNER), [200]);
      await strangerLocksOut(tally, username, true);
    },
  );

  probe('the owner signs up again: the stranger’s password and code are replaced by the owner’s', async (tally) => {
    const username = uniqueEmail('takeover-again');
    const strangersCode = await strangerSignsUp(username);
    const seen = (await mails(username)).length;
    const again = await register(username, OWNER);
    tally.status('signing up again with an unproved address is accepted (201)', again, [201]);
    tally.check(
      'it answers as a new, unverified account',
      again.body.data?.verified === false,
      describeResponse(again),
    );
    refused(
      tally,
      'the stranger’s password no longer matches, even unverified',
      await login(username, STRANGER),
      'WRONG_CREDENTIALS',
    );
    const ownersCode = codeIn(await newMail(username, seen, (m) => /\b\d{6}\b/.test(m.text)));
    if (ownersCode !== strangersCode) {
      refused(
        tally,
        'the code of the stranger’s sign-up is retired',
        await verify(username, strangersCode, OWNER),
        'INVALID_CODE',
      );
    }
    refused(
      tally,
      'the stranger’s password with the owner’s code is refused',
      await verify(username, ownersCode, STRANGER),
      'WRONG_PASSWORD',
    );
    tally.status('the owner verifies with their code and password', await verify(username, ownersCode, OWNER), [200]);
    await strangerLocksOut(tally, username, false);
    refused(tally, 'a verified address is not signed up over', await register(username, STRANGER), 'USER_EXISTS');
    await strangerLocksOut(tally, username, false);
  });

  probe(
    'the owner uses forgot-password on a stranger’s sign-up: the reset verifies and ends the stranger’s password',
    async (tally) => {
      const username = uniqueEmail('takeover-forgot');
      const code = await strangerSignsUp(username);
      const seen = (await mails(username)).length;
      tally.status(
        'forgot-password answers for an unverified address',
        await t.http().post('/api/v1/users/forgot-password').send({ email: username }),
        [200],
      );
      const link = resetToken(await newMail(username, seen, (m) => m.text.includes('reset-password')));
      tally.status('the owner resets the password', await reset(link, OWNER), [200]);
      await strangerLocksOut(tally, username, false);
      refused(
        tally,
        'the address is verified: the sign-up code is spent',
        await verify(username, code, STRANGER),
        'ALREADY_VERIFIED',
      );
    },
  );
});

describe('reset links', () => {
  probe('a reset ends every other reset link and every session', async (tally) => {
    for (const order of ['newer first', 'older first'] as const) {
      const u = await createUser(t, { tag: 'reset-links' });
      const links: string[] = [];
      for (let i = 0; i < 2; i += 1) {
        const seen = (await mails(u.username)).length;
        await t.http().post('/api/v1/users/forgot-password').send({ email: u.username }).expect(200);
        links.push(resetToken(await newMail(u.username, seen, (m) => m.text.includes('reset-password'))));
      }
      const [used, other] = order === 'newer first' ? [links[1], links[0]] : [links[0], links[1]];
      tally.status(`${order}: the reset with one link works`, await reset(used, OWNER), [200]);
      refused(tally, `${order}: the other link is ended`, await reset(other, STRANGER), 'INVALID_TOKEN');
      tally.status(`${order}: the password of the reset signs in`, await login(u.username, OWNER), [200]);
      refused(tally, `${order}: the other link set nothing`, await login(u.username, STRANGER), 'WRONG_CREDENTIALS');
      tally.status(
        `${order}: the session from before is ended`,
        await t
          .http()
          .get('/api/v1/account/profile')
          .set(...u.auth()),
        [401],
      );
      tally.status(
        `${order}: its refresh token too`,
        await t.http().post('/api/v1/auth/refresh-token').send({ refresh_token: u.refresh }),
        [401],
      );
    }
  });
});

describe('lockout by a third party', () => {
  let p: TestApp;
  let ipCounter = 0;
  /** A client address of its own (the benchmarking range 198.18.0.0/15, RFC 2544: no other file uses it). */
  const newIp = () => `198.18.${process.pid % 250}.${(ipCounter += 1)}`;
  beforeAll(async () => {
    p = await startApp({ JWT_SECRET, TRUST_PROXY: 'loopback' });
  });
  afterAll(() => p.close());
  const loginFrom = (ip: string, body: Record<string, string>) =>
    p.http().post('/api/v1/auth/login').set('X-Forwarded-For', ip).send(body);
  const outbox = async (to: string) =>
    (await p.http().get('/api/v1/dev/outbox').query({ to })).body.data as OutboxMail[];

  probe(
    '9 wrong passwords from each of 7 addresses: the owner gets in from a new one with the e-mailed code',
    async (tally) => {
      const u = await createUser(p, { tag: 'lockout' });
      for (let n = 0; n < 7; n += 1) {
        const ip = newIp();
        for (let k = 0; k < 9; k += 1) {
          const res = await loginFrom(ip, { username: u.username, password: `Wrong-${n}-${k}!` });
          tally.check(
            `guess ${k + 1} from address ${n + 1}: refused`,
            res.status === 400 &&
              ['WRONG_CREDENTIALS', 'LOGIN_CODE_REQUIRED'].includes(res.body.errors?.[0]?.code as string),
            describeResponse(res),
          );
        }
      }
      const owner = newIp();
      const asked = await loginFrom(owner, { username: u.username, password: u.password });
      refused(tally, 'the owner from a new address is asked for a code, not refused', asked, 'LOGIN_CODE_REQUIRED');
      refused(
        tally,
        'a wrong password from a new address is asked the same (no password is checked)',
        await loginFrom(newIp(), { username: u.username, password: 'Wrong-again-1!' }),
        'LOGIN_CODE_REQUIRED',
      );
      refused(
        tally,
        'a guessed code is refused',
        await loginFrom(newIp(), { username: u.username, password: u.password, code: '000000' }),
        'INVALID_CODE',
      );
      const codeMail = await waitForMail(p, u.username, (m) => m.subject.startsWith('Your Sparks login code'));
      tally.check('a login code was e-mailed to the owner', Boolean(codeMail), 'none');
      const code = codeIn(codeMail);
      refused(
        tally,
        'the code with a wrong password does not sign in',
        await loginFrom(newIp(), { username: u.username, password: 'Wrong-again-2!', code }),
        'WRONG_CREDENTIALS',
      );
      tally.status(
        'the owner signs in with the code and their password',
        await loginFrom(owner, { username: u.username, password: u.password, code }),
        [200],
      );
      tally.status(
        'the owner’s address is known now: the password alone signs in',
        await loginFrom(owner, { username: u.username, password: u.password }),
        [200],
      );
      refused(
        tally,
        'the code worked once',
        await loginFrom(newIp(), { username: u.username, password: u.password, code }),
        'INVALID_CODE',
      );
      // Many more requests for codes: the owner's mailbox gets a few, not one per request.
      for (let i = 0; i < 20; i += 1) await loginFrom(newIp(), { username: u.username, password: `Wrong-more-${i}!` });
      const codes = (await outbox(u.username)).filter((m) => /\b\d{6}\b/.test(m.subject)).length;
      tally.check('login codes e-mailed are capped (at most 5 per window)', codes <= 6, `${codes} code mails`);
    },
  );

  probe('11 forgot-password requests by others: the owner still resets', async (tally) => {
    const u = await createUser(p, { tag: 'lockout-reset' });
    const attacker = newIp();
    for (let i = 0; i < 11; i += 1) {
      const res = await p
        .http()
        .post('/api/v1/users/forgot-password')
        .set('X-Forwarded-For', attacker)
        .send({ email: u.username });
      tally.status(`request ${i + 1} by someone else is answered as usual`, res, [200]);
    }
    const owner = await p
      .http()
      .post('/api/v1/users/forgot-password')
      .set('X-Forwarded-For', newIp())
      .send({ email: u.username });
    tally.status('the owner’s own request is answered 200, not 429', owner, [200]);
    const links = (await outbox(u.username)).filter((m) => m.text.includes('reset-password'));
    tally.check(
      'reset e-mails to one address are capped (5 per window)',
      links.length >= 1 && links.length <= 5,
      `${links.length} mails`,
    );
    const oldest = links[links.length - 1];
    tally.status(
      'a link the owner holds still resets',
      await p
        .http()
        .post('/api/v1/users/reset-password')
        .set('Authorization', `Bearer ${resetToken(oldest)}`)
        .send({ newPassword: OWNER }),
      [200],
    );
    tally.status(
      'the owner signs in with the new password',
      await loginFrom(newIp(), { username: u.username, password: OWNER }),
      [200],
    );
  });
});
