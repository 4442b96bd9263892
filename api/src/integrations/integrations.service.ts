import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import {
  SHAREPOINT_CONNECTED_QUERY,
  type IntegrationProvider,
  type IntegrationService,
  type IntegrationsView,
} from '@sparks/contracts';
import { DomainError, type AppConfig } from '@sparks/core';
import { IntegrationsRepository, SparksRepository } from '@sparks/db';
import { PlanGates } from '@sparks/domain';
import { OAuthError, pkcePair, sealTokenSet } from '@sparks/knowledge';
import { JobProducer, queueOf, scheduleIntegrationSync, unscheduleIntegrationSync } from '@sparks/queues';
import type { Redis } from 'ioredis';
import { CONFIG, REDIS } from '@sparks/nest';
import { verifyExpiring } from '../auth/jwt-options';
import { newSecret } from '../auth/secrets';
import { SparksService } from '../sparks/sparks.service';
import { MicrosoftService } from './microsoft.service';

/** How long a started connection may take: the signed state and its PKCE verifier live this long, once. */
const STATE_TTL_SECONDS = 600;
const STATE_TYPE = 'integration-state';

/**
 * The cookie that binds a started connection to the browser that started it (login CSRF: a victim who opens an
 * authorization link an attacker started must not link their Microsoft account to the attacker's Spark). Set by the
 * authorize call, sent only to the callback, which clears it.
 */
export const CONNECT_COOKIE = 'sparks_ms_connect';
const CONNECT_COOKIE_PATH = '/api/v1/integrations/microsoft/callback';

interface StateClaims {
  typ: typeof STATE_TYPE;
  sub: string;
  spk: string;
  svc: IntegrationService;
  nonce: string;
  /** SHA-256 (base64url) of the browser's binding cookie. */
  bnd: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

export interface CallbackQuery {
  code?: unknown;
  state?: unknown;
  error?: unknown;
}

/**
 * Connecting a Spark to Microsoft 365 (issue 20): the authorization URL with PKCE and a signed, single-use
 * state bound to the user and the Spark; the callback that trades the code and stores the tokens sealed;
 * the Spark's connections; disconnecting.
 */
@Injectable()
export class IntegrationsService {
  private readonly logger = new Logger(IntegrationsService.name);

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly jwt: JwtService,
    private readonly sparks: SparksService,
    private readonly sparkRows: SparksRepository,
    private readonly plans: PlanGates,
    private readonly repo: IntegrationsRepository,
    private readonly microsoft: MicrosoftService,
    private readonly jobs: JobProducer,
  ) {}

  private get syncQueue() {
    return this.jobs.queue(queueOf('integration.sync'));
  }

  private verifierKey(nonce: string): string {
    return `${this.config.QUEUE_PREFIX}:integration-pkce:${nonce}`;
  }

  /** The provider of a path, or 404: `microsoft` is the only one. */
  provider(name: string): IntegrationProvider {
    if (name !== 'microsoft') throw DomainError.notFound();
    return name;
  }

  /** The binding cookie's attributes (`maxAge` in ms, for Express). */
  connectCookieOptions() {
    return {
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: this.config.APP_URL.startsWith('https:'),
      path: CONNECT_COOKIE_PATH,
      maxAge: STATE_TTL_SECONDS * 1000,
    };
  }

  /**
   * The authorization URL, and the browser binding the controller sets as the `CONNECT_COOKIE`: the state carries
   * its hash, and the callback accepts the state only from a browser that holds it.
   */
  async authorize(userId: string, sparkId: string, providerName: string, service: IntegrationService) {
    await this.sparks.owned(userId, sparkId);
    this.provider(providerName);
    const oauth = this.microsoft.oauth;
    if (!oauth) throw DomainError.of('MICROSOFT_NOT_CONFIGURED');
    await this.plans.assertDocumentSharing(userId);
    const nonce = newSecret();
    const binding = newSecret();
    const { verifier, challenge } = pkcePair();
    await this.redis.set(this.verifierKey(nonce), verifier, 'EX', STATE_TTL_SECONDS);
    const bnd = digest(binding).toString('base64url');
    const claims: StateClaims = { typ: STATE_TYPE, sub: userId, spk: sparkId, svc: service, nonce, bnd };
    const state = await this.jwt.signAsync(claims, { expiresIn: STATE_TTL_SECONDS });
    return { authUrl: oauth.authorizeUrl(state, challenge, service), binding };
  }

  /**
   * Where the browser goes after Microsoft sent it back: the Spark with `q=sharepoint-conected`, or with
   * `error=sharepoint` when anything failed (the state is bad, spent or expired, the user said no, the code did
   * not trade, the Spark or the plan changed meanwhile). A state that does not verify, or that comes from a browser
   * without the binding cookie of the authorize call that made it (`binding`), leads to the app's home.
   */
  async callback(query: CallbackQuery, binding: string | undefined): Promise<string> {
    const home = new URL('/', this.config.APP_URL);
    const claims = await this.verifyState(query.state);
    if (!claims) return home.toString();
    if (!this.boundTo(claims, binding)) {
      this.logger.warn(`Microsoft connection of Spark ${claims.spk} refused: not the browser that started it`);
      return home.toString();
    }
    const target = new URL(`/spark/${claims.spk}`, this.config.APP_URL);
    const fail = (why: string) => {
      this.logger.warn(`Microsoft connection of Spark ${claims.spk} failed: ${why}`);
      target.searchParams.set('error', 'sharepoint');
      return target.toString();
    };
    // Single use: the verifier goes with the first callback that presents the state.
    const verifier = await this.redis.getdel(this.verifierKey(claims.nonce));
    if (!verifier) return fail('state already used or expired');
    if (typeof query.error === 'string') return fail(`Microsoft answered ${query.error.slice(0, 80)}`);
    if (typeof query.code !== 'string' || query.code === '' || query.code.length > 4096) return fail('no code');
    const oauth = this.microsoft.oauth;
    if (!oauth) return fail('not configured');
    const spark = await this.sparkRows.findOwned(claims.sub, claims.spk);
    if (!spark) return fail('the Spark is gone');
    if (!(await this.plans.documentSharing(claims.sub))) return fail('the plan is no longer zaphire');
    let tokens;
    try {
      tokens = await oauth.exchangeCode(query.code, verifier, claims.svc);
    } catch (err) {
      return fail(err instanceof OAuthError ? err.message : 'token exchange failed');
    }
    const row = { sparkId: claims.spk, provider: 'microsoft' };
    const connection = await this.repo.upsert({
      ...row,
      userId: claims.sub,
      service: claims.svc,
      ...sealTokenSet(this.microsoft.tokenKey, row, tokens),
    });
    // Connected even if Redis is away now: each worker, at start, schedules the connections that lack it.
    await scheduleIntegrationSync(
      this.syncQueue,
      connection.id,
      this.config.INTEGRATION_SYNC_INTERVAL_SECONDS * 1000,
    ).catch((err: unknown) => this.logger.warn(`could not schedule the sync of ${connection.id}: ${String(err)}`));
    target.searchParams.set('q', SHAREPOINT_CONNECTED_QUERY);
    return target.toString();
  }

  private async verifyState(state: unknown): Promise<StateClaims | undefined> {
    if (typeof state !== 'string' || state.length > 2048) return undefined;
    try {
      const claims = await verifyExpiring<StateClaims>(this.jwt, state);
      return claims.typ === STATE_TYPE && claims.sub && claims.spk && claims.nonce && claims.bnd ? claims : undefined;
    } catch {
      return undefined;
    }
  }

  private boundTo(claims: StateClaims, binding: string | undefined): boolean {
    if (!binding || binding.length > 256) return false;
    const expected = Buffer.from(claims.bnd, 'base64url');
    const actual = digest(binding);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  async view(userId: string, sparkId: string): Promise<IntegrationsView> {
    await this.sparks.owned(userId, sparkId);
    const rows = await this.repo.listForSpark(sparkId);
    return {
      configured: { microsoft: this.microsoft.enabled },
      connections: rows.map((r) => ({
        provider: r.provider as IntegrationProvider,
        service: r.service as IntegrationService,
        connectedAt: r.createdAt.toISOString(),
      })),
    };
  }

  /**
   * Forgets the connection: its sealed tokens, the files it follows (the documents already imported stay) and
   * its sync scheduler.
   * Microsoft offers no endpoint to revoke one app's delegated refresh token; deleting the only copy is the
   * revocation in our power, and the user can remove the app's consent at myapps.microsoft.com.
   */
  async disconnect(userId: string, sparkId: string, providerName: string) {
    await this.sparks.owned(userId, sparkId);
    const provider = this.provider(providerName);
    const removed = await this.repo.remove(sparkId, provider);
    // Should this fail (Redis away), the next run finds the connection gone and removes its scheduler.
    if (removed) {
      await unscheduleIntegrationSync(this.syncQueue, removed).catch((err: unknown) =>
        this.logger.warn(`could not remove the sync scheduler of ${removed}: ${String(err)}`),
      );
    }
    return { provider, disconnected: removed !== undefined };
  }
}
