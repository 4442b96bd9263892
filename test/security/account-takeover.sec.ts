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
