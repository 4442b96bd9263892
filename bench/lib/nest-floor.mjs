// A second reference for `GET /api/v1/sparks` (bench/api.mjs): the bare server's work (the same HS256
// check, the same three queries, the same pool, bench/lib/bare-api.mjs) served through NestJS on Express
// with the api's shape — a global guard that checks the token and loads the user, a controller, a global
// interceptor that wraps the answer in `{ data, meta }` — and nothing else (no logging, metrics, helmet,
// validation or ORM). What this costs over bare is the framework's share of the request path.
//
//   DATABASE_URL=… JWT_SECRET=… PORT=… node bench/lib/nest-floor.mjs
import { rootRequire } from './common.mjs';
import { verify, sparksPage, findUser } from './bare-api.mjs';

rootRequire('reflect-metadata');
const { NestFactory, APP_GUARD, APP_INTERCEPTOR } = rootRequire('@nestjs/core');
const { Module, Controller, Get, Injectable, Req, UnauthorizedException } = rootRequire('@nestjs/common');
const { map } = rootRequire('rxjs');

class AuthGuard {
  async canActivate(context) {
    const req = context.switchToHttp().getRequest();
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const claims = token && verify(token);
    const user = claims && (await findUser(claims));
    if (!user) throw new UnauthorizedException();
    req.user = user;
    return true;
  }
}
Injectable()(AuthGuard);

class Envelope {
  intercept(_context, next) {
    return next.handle().pipe(map(({ data, meta }) => ({ data, meta })));
  }
}
Injectable()(Envelope);

class SparksController {
  list(req) {
    const page = Number(req.query.page ?? 1);
    const limit = Number(req.query.limit ?? 20);
    return sparksPage(req.user, page, limit);
  }
}
Controller('api/v1/sparks')(SparksController);
Req()(SparksController.prototype, 'list', 0);
Reflect.decorate(
  [Get()],
  SparksController.prototype,
  'list',
  Object.getOwnPropertyDescriptor(SparksController.prototype, 'list'),
);

class FloorModule {}
Module({
  controllers: [SparksController],
  providers: [
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_INTERCEPTOR, useClass: Envelope },
  ],
})(FloorModule);

// NEST_FLOOR_ADAPTER=fastify: the same on Nest's Fastify adapter (bench/api.mjs --fastify-floor; installed for that run).
const fastify = process.env.NEST_FLOOR_ADAPTER === 'fastify';
const app = fastify
  ? await NestFactory.create(FloorModule, new (rootRequire('@nestjs/platform-fastify').FastifyAdapter)(), {
      logger: false,
    })
  : await NestFactory.create(FloorModule, { logger: false, bodyParser: false });
if (!fastify) app.getHttpAdapter().getInstance().disable('x-powered-by');
await app.listen(Number(process.env.PORT), '127.0.0.1');
process.stdout.write('ready\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
