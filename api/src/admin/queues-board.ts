import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { QUEUE_NAMES, JobProducer } from '@sparks/queues';
import { parse as parseCookies } from 'cookie';
import type { NextFunction, Request, Response } from 'express';
import { simpleEnvelope } from '../common/error-envelope';
import { ADMIN_COOKIE, AdminService } from './admin.service';

export const QUEUES_BOARD_PATH = '/admin/queues';

/**
 * Board actions an admin may not take: jobs are made by the app, whose payloads hold ids only, so
 * adding a job or rewriting a job's data by hand is refused. Retry, clean, promote, pause, resume
 * and the rest stay.
 */
const REFUSED_ACTIONS = [/^\/api\/queues\/[^/]+\/add$/, /^\/api\/queues\/[^/]+\/[^/]+\/update-data$/];

/**
 * The path as the board's router matches it: Express routes without regard to case, decodes escapes, and
 * takes repeated or trailing slashes; so the refusal compares the decoded, lower-cased path with its slashes
 * collapsed (`/API/queues/email/ADD`, `/api/queues/email/%61dd`, `//api//queues/email/add/`). A path that
 * does not decode is refused by the router itself.
 */
function normalisedPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // kept as it is
  }
  return decoded
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/\/$/, '');
}

const isRefusedAction = (path: string) => REFUSED_ACTIONS.some((r) => r.test(normalisedPath(path)));

/** The app's admin page (web), where an admin opens the board with a session. */
const ADMIN_PAGE = '/admin';

/** A browser opening one of the board's pages (not its API, not its static files). */
function isPageVisit(req: Request): boolean {
  return req.method === 'GET' && !/^\/(api|static)\//.test(req.path) && req.accepts(['json', 'html']) === 'html';
}

/**
 * Runs before Bull Board on every path under it (its page, its /api routes and actions, its
 * static files): 401 without a valid admin session cookie, 403 when its holder is no longer an
 * admin; a page opened in a browser is sent to the app's /admin page instead. Nest guards do not
 * see these routes; this is their only gate. A bearer token is not a session here: the board is a
 * page, and a page navigation sends no Authorization header.
 */
function requireAdminSession(admin: AdminService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = parseCookies(req.headers.cookie ?? '')[ADMIN_COOKIE];
    admin.checkSession(token).then(
      (check) => {
        if (check.ok && isRefusedAction(req.path)) {
          res.status(403).json(simpleEnvelope(req, 403, 'FORBIDDEN'));
          return;
        }
        if (check.ok) {
          res.setHeader('Cache-Control', 'no-store');
          next();
          return;
        }
        // A person who opened the board's address (a bookmark, an expired session): the app's admin page, which
        // signs them in or says the page is for admins, and opens the board from there. Its own calls keep the JSON.
        if (isPageVisit(req)) {
          res.setHeader('Cache-Control', 'no-store');
          res.redirect(303, ADMIN_PAGE);
          return;
        }
        const code = check.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN';
        res.status(check.status).json(simpleEnvelope(req, check.status, code));
      },
      (err: unknown) => next(err),
    );
  };
}

/** Bull Board at /admin/queues over every declared queue, behind {@link requireAdminSession}. */
export function mountQueuesBoard(app: NestExpressApplication): void {
  const producer = app.get(JobProducer);
  const admin = app.get(AdminService);
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUES_BOARD_PATH);
  createBullBoard({
    queues: QUEUE_NAMES.map((name) => new BullMQAdapter(producer.queue(name))),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Sparks queues' } },
  });
  app.use(QUEUES_BOARD_PATH, requireAdminSession(admin), serverAdapter.getRouter());
}
