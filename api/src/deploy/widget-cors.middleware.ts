import { Injectable, type NestMiddleware } from '@nestjs/common';
import { deployTokenParam } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import type { NextFunction, Request, Response } from 'express';
import { RefusedSites } from './refused-sites';
import { requestOrigin, WidgetService, type WidgetContext } from './widget.service';

const TOKEN_IN_PATH = /\/public\/widgets\/([^/?#]+)/;
/** The widget's first request on a page view: its look (`GET …/config`). */
const CONFIG_PATH = /\/public\/widgets\/[^/?#]+\/config(?:[?#]|$)/;
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, Accept-Language';

export type WidgetRequest = Request & { widget?: WidgetContext };

/**
 * The origin allow-list of the public widget API, before any route: the token in the path names the
 * Spark; a page whose origin is not on its list gets 403 and no CORS header at all (preflight
 * included); an allowed one gets its exact origin back, never `*`, with `Vary: Origin`. The checked
 * context rides on the request for the routes. A refused config request of a live deployment is noted for its
 * owner (RefusedSites).
 */
@Injectable()
export class WidgetCorsMiddleware implements NestMiddleware {
  constructor(
    private readonly widgets: WidgetService,
    private readonly refused: RefusedSites,
  ) {}

  async use(req: WidgetRequest, res: Response, next: NextFunction): Promise<void> {
    try {
      res.setHeader('Vary', 'Origin');
      const raw = decodeURIComponent(TOKEN_IN_PATH.exec(req.originalUrl)?.[1] ?? '');
      if (!deployTokenParam.safeParse(raw).success) throw DomainError.of('DEPLOY_TOKEN_INVALID');
      const ctx = await this.widgets.resolve(raw);
      const origin = requestOrigin(req, this.widgets.appOrigin);
      if (!(await this.widgets.allowed(ctx, origin)) || !origin) {
        // A live widget's page on a site not allowed: the owner sees it on /deploy (and may allow it there).
        if (origin && ctx.deployment && req.method === 'GET' && CONFIG_PATH.test(req.originalUrl))
          await this.refused.note(ctx.spark.id, origin);
        throw DomainError.of('ORIGIN_NOT_ALLOWED');
      }
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', 'Retry-After, X-Request-Id');
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
        res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        res.setHeader('Access-Control-Max-Age', '600');
        res.status(204).end();
        return;
      }
      req.widget = { ...ctx, origin };
      next();
    } catch (err) {
      next(err);
    }
  }
}
