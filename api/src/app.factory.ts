import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { createLogger, loadConfig, type AppConfig } from '@sparks/core';
import { PinoNestLogger } from '@sparks/nest';
import express, { type NextFunction, type Request, type Response } from 'express';
import fs from 'node:fs';
import path from 'node:path';
import { mountQueuesBoard, QUEUES_BOARD_PATH } from './admin/queues-board';
import { AppModule } from './app.module';
import { httpMetrics, metricsEndpoint } from './metrics/metrics';
import { JobProducer } from '@sparks/queues';
import { simpleEnvelope } from './common/error-envelope';
import { accessLog } from './common/access-log';
import { securityHeaders } from './common/security-headers';
import { isUtf8 } from './common/text-input';
import { APP_VERSION } from './version';
import { STRIPE_WEBHOOK_PATH, type RawBodyRequest } from './billing/stripe/raw-body';

const API_PREFIX = 'api/v1';

const NOT_UTF8 = 'sparks.not.utf8';

/**
 * JSON is UTF-8, but body-parser decodes it leniently: bytes that are not UTF-8 (an encoded lone
 * surrogate) would silently become U+FFFD. A body declared in another charset is left to the parser.
 */
function verifyUtf8(req: Request, _res: Response, body: Buffer): void {
  // Stripe signs the bytes it sent: its webhook keeps them beside the parsed JSON.
  if (req.originalUrl.split('?')[0] === STRIPE_WEBHOOK_PATH) (req as RawBodyRequest).rawBody = body;
  const charset = /;\s*charset="?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if ((charset === undefined || charset === 'utf-8' || charset === 'utf8') && !isUtf8(body)) {
    throw Object.assign(new Error('the JSON body is not UTF-8'), { type: NOT_UTF8 });
  }
}

/** Body-parser failures happen before Nest routes; answer them in the same envelope. */
function bodyErrorHandler(err: unknown, req: Request, res: Response, next: NextFunction): void {
  const type = (err as { type?: string } | null)?.type;
  if (type === NOT_UTF8) {
    res.status(400).json(simpleEnvelope(req, 400, 'INVALID_CHARACTERS'));
  } else if (type === 'entity.too.large') {
    res.status(413).json(simpleEnvelope(req, 413, 'PAYLOAD_TOO_LARGE'));
  } else if (type === 'entity.parse.failed' || type === 'encoding.unsupported' || type === 'charset.unsupported') {
    res.status(400).json(simpleEnvelope(req, 400, 'MALFORMED_JSON'));
  } else {
    next(err);
  }
}

/** Paths the api answers itself: never a file of the SPA, never its index.html. */
function isApiPath(p: string): boolean {
  return (
    p.startsWith('/api/') ||
    p === '/api' ||
    p === QUEUES_BOARD_PATH ||
    p.startsWith(`${QUEUES_BOARD_PATH}/`) ||
    p === '/metrics'
  );
}

/**
 * Serves the built SPA: real files first, then index.html for client-side routes. API paths skip
 * both (no file is looked up on disk for an API request: a `stat` per request was a measurable share
 * of the request path's CPU, bench/RESULTS.md).
 */
function serveSpa(app: NestExpressApplication, dist: string): void {
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) return;
  const files = express.static(dist, {
    index: false,
    setHeaders: (res, file) => {
      const immutable = file.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (isApiPath(req.path)) return next();
    files(req, res, next);
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && !isApiPath(req.path) && req.accepts('html')) {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index);
      return;
    }
    next();
  });
}

/**
 * The website widget (`web/dist/widget`, built by `npm run build -w web`): `/widget.js` (the loader a
 * site embeds) and `/widget/chat.js` (the chat UI it loads). Any site may load them (they hold no
 * data: the API's allow-list decides who gets a Spark), so they are cross-origin resources; the
 * loader's address never changes, so it is revalidated rather than cached for long.
 */
function serveWidget(app: NestExpressApplication, dist: string): void {
  const files: Record<string, string> = { '/widget.js': 'widget.js', '/widget/chat.js': 'chat.js' };
  app.use((req: Request, res: Response, next: NextFunction) => {
    const file = files[req.path];
    if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const full = path.join(dist, 'widget', file);
    if (!fs.existsSync(full)) return next();
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Cache-Control', 'public, max-age=300, must-revalidate');
    res.type('application/javascript');
    res.sendFile(full);
  });
}

/** The interactive documentation, its assets and the OpenAPI document (JSON and YAML). */
const API_DOCS_PATH = /^\/api\/docs(?:$|[/-])/;

/**
 * Who may read the API documentation: anyone outside production; in production nobody yet. When
 * admins exist, "or the caller is an admin" belongs here.
 */
function mayReadApiDocs(_req: Request, config: AppConfig): boolean {
  return config.NODE_ENV !== 'production';
}

/** Where the documentation is closed, it answers exactly as a route that does not exist. */
function guardApiDocs(config: AppConfig) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!API_DOCS_PATH.test(req.path) || mayReadApiDocs(req, config)) return next();
    res.status(404).json(simpleEnvelope(req, 404, 'ROUTE_NOT_FOUND', { method: req.method, path: req.path }));
  };
}

export async function createApp(): Promise<NestExpressApplication> {
  const config = loadConfig();
  const log = createLogger('api', config.LOG_LEVEL);
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    logger: new PinoNestLogger(log),
  });
  app.use(accessLog(log));
  // Client IPs (rate limits) come from the socket unless a proxy we run is declared.
  app.set(
    'trust proxy',
    config.TRUST_PROXY ? (/^\d+$/.test(config.TRUST_PROXY) ? Number(config.TRUST_PROXY) : config.TRUST_PROXY) : false,
  );
  app.disable('x-powered-by');
  app.use(httpMetrics());
  app.use(metricsEndpoint(config, app.get(JobProducer)));
  // Plain-HTTP deployments (a LAN address) must keep working: no forced upgrade of asset requests.
  app.use(securityHeaders({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  app.use(express.json({ limit: config.JSON_BODY_LIMIT, verify: verifyUtf8 }));
  app.use(bodyErrorHandler);
  app.setGlobalPrefix(API_PREFIX);
  app.use(guardApiDocs(config));

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Sparks API')
      .setDescription(
        'Build, test and deploy AI assistants. Every answer is `{ data }`; every failure `{ statusCode, errors }`.',
      )
      .setVersion(APP_VERSION)
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs/openapi.json' });

  mountQueuesBoard(app);

  const webDist = config.WEB_DIST ?? path.resolve(__dirname, '..', '..', 'web', 'dist');
  serveWidget(app, webDist);
  serveSpa(app, webDist);
  return app;
}
