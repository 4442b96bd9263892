import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { Passport } from 'passport';
import { Strategy as GoogleStrategy, type Profile } from 'passport-google-oauth20';
import { CONFIG, REDIS } from '@sparks/nest';
import { newSecret } from './secrets';

type Middleware = (req: Request, res: Response, next: NextFunction) => void;
type StoreCallback = (err: Error | null, state?: string) => void;
type VerifyCallback = (err: Error | null, ok: boolean, state?: unknown) => void;

/** OAuth `state` values live in Redis for ten minutes and work once, on any api replica. */
class RedisStateStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  store(_req: Request, callback: StoreCallback): void {
    const state = newSecret();
    this.redis.set(`${this.prefix}:oauth-state:${state}`, '1', 'EX', 600).then(
      () => callback(null, state),
      (err: Error) => callback(err),
    );
  }

  verify(_req: Request, state: string, callback: VerifyCallback): void {
    this.redis.getdel(`${this.prefix}:oauth-state:${state}`).then(
      (found) => callback(null, found === '1', state),
      (err: Error) => callback(err, false),
    );
  }
}

/** Google sign-in through passport-google-oauth20, on a private Passport instance (no sessions). */
@Injectable()
export class GoogleService {
  private readonly passport = new Passport();

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) redis: Redis,
  ) {
    if (!config.GOOGLE_ENABLED) return;
    this.passport.use(
      'google',
      new GoogleStrategy(
        {
          clientID: config.GOOGLE_CLIENT_ID!,
          clientSecret: config.GOOGLE_CLIENT_SECRET!,
          callbackURL: `${config.APP_URL}/api/v1/auth/service/google/callback`,
          authorizationURL: config.GOOGLE_AUTHORIZATION_URL,
          tokenURL: config.GOOGLE_TOKEN_URL,
          userProfileURL: config.GOOGLE_USERINFO_URL,
          scope: ['openid', 'email', 'profile'],
          store: new RedisStateStore(redis, config.QUEUE_PREFIX) as never,
        },
        (_access: string, _refresh: string, profile: Profile, done: (err: Error | null, user?: Profile) => void) =>
          done(null, profile),
      ),
    );
  }

  get enabled(): boolean {
    return this.config.GOOGLE_ENABLED;
  }

  /** Redirects the browser to Google's consent page with a fresh state. */
  start(req: Request, res: Response, next: NextFunction): void {
    const middleware = this.passport.authenticate('google', { session: false }) as Middleware;
    middleware(req, res, next);
  }

  /** Checks the state, trades the code for a profile; resolves undefined when anything fails. */
  callback(req: Request, res: Response): Promise<Profile | undefined> {
    return new Promise((resolve) => {
      const middleware = this.passport.authenticate(
        'google',
        { session: false },
        (err: unknown, profile: Profile | false) => resolve(err || !profile ? undefined : profile),
      ) as Middleware;
      middleware(req, res, () => resolve(undefined));
    });
  }
}
