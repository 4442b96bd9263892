// The floor for `GET /api/v1/sparks` (bench/api.mjs): node:http + pg doing what the api does for it —
// the same HS256 check of the same token, the same three queries (the user by id, the page of Sparks,
// their count) on a pool of the same size — and nothing else (no framework, no validation, no ORM).
//
//   DATABASE_URL=… JWT_SECRET=… PORT=… node bench/lib/bare-api.mjs
import { createHmac, createSecretKey, hkdfSync, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { rootRequire } from './common.mjs';

const { Pool } = rootRequire('pg');
/** bench/lib/nest-floor.mjs does the same work through NestJS: it imports what follows. */
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_MAX ?? 10) });
// The access tokens' key, derived from JWT_SECRET as the api derives it (api/src/auth/jwt-options.ts `tokenKey`).
const key = createSecretKey(
  Buffer.from(hkdfSync('sha256', process.env.JWT_SECRET, 'sparks jwt', 'sparks jwt access', 32)),
);
/** BARE_PREPARED=true: named (prepared) statements, planned once per connection. */
const prepared = process.env.BARE_PREPARED === 'true';
const query = (name, text, values) => pool.query(prepared ? { name, text, values } : { text, values });

/** The claims of a valid HS256 token, or undefined. */
export function verify(token) {
  const [head, body, sig] = token.split('.');
  if (!sig) return undefined;
  const header = JSON.parse(Buffer.from(head, 'base64url').toString());
  if (header.alg !== 'HS256') return undefined;
  const expected = createHmac('sha256', key).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
  // Every token the api signs expires: one without `exp` is refused, as the api does (verifyExpiring).
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return undefined;
  return claims;
}

/** The token's user, if its version still holds. */
export async function findUser(claims) {
  const user = (await query('user', 'SELECT * FROM users WHERE id = $1', [claims.sub])).rows[0];
  return user && user.token_version === claims.tv ? user : undefined;
}

/** The page of the user's Sparks, newest first, with their count: `{ data, meta }`. */
export async function sparksPage(user, page, limit) {
  const [rows, total] = await Promise.all([
    query('sparks', 'SELECT * FROM sparks WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3', [
      user.id,
      limit,
      (page - 1) * limit,
    ]),
    query('count', 'SELECT count(*)::int AS total FROM sparks WHERE user_id = $1', [user.id]),
  ]);
  return {
    data: rows.rows.map((r) => ({ _id: r.id, name: r.name, pin: r.pin, type: r.type, createdAt: r.created_at })),
    meta: { total: total.rows[0].total, page, limit },
  };
}

const send = (res, status, body) => {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
};

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://x');
    if (url.pathname !== '/api/v1/sparks') return send(res, 404, { error: 'not found' });
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const claims = token && verify(token);
    if (!claims) return send(res, 401, { error: 'unauthorized' });
    const user = await findUser(claims);
    if (!user) return send(res, 401, { error: 'unauthorized' });
    send(
      res,
      200,
      await sparksPage(user, Number(url.searchParams.get('page') ?? 1), Number(url.searchParams.get('limit') ?? 20)),
    );
  } catch (err) {
    send(res, 500, { error: String(err) });
  }
});
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
}
