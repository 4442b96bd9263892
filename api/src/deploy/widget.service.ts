import { Inject, Injectable, Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { widgetIconPaths, type ConnectView, type VisitorSessionView, type WidgetConfigView } from '@sparks/contracts';
import { DomainError, type AppConfig } from '@sparks/core';
import {
  AccountsRepository,
  ConversationsRepository,
  DeployRepository,
  toWireMessage,
  type ConversationRow,
  type DeploymentRow,
  type MessageRow,
  type SparkRow,
} from '@sparks/db';
import { firstSeenMessage } from '@sparks/engine';
import { publishMessage } from '@sparks/queues';
import type { Request } from 'express';
import type { Redis } from 'ioredis';
import { CONFIG, REDIS } from '@sparks/nest';
import { verifyExpiring } from '../auth/jwt-options';
import { hashToken, normalizeOrigin, openDeployToken, snippetFor, withLiveToken } from './deploy-secrets';

/** What a public token names: a published Spark, or the owner's preview of one (app origin only). */
export interface WidgetContext {
  spark: SparkRow;
  deployment: DeploymentRow | null;
  /** The deployment id, or `preview`: visitor tokens are bound to it. */
  scope: string;
  rotation: number;
  /** The caller's origin, once checked against the allow-list. */
  origin: string;
}

interface VisitorClaims {
  sub: string;
  spk: string;
  scp: string;
  rot: number;
}

const VISITOR_AUDIENCE = 'sparks-widget-visitor';
const PREVIEW_AUDIENCE = 'sparks-widget-preview';
const PREVIEW_TTL_SECONDS = 4 * 3600;
/** An expired visitor token still renews its visitor for this long (the same browser comes back). */
const RENEW_WITHIN_SECONDS = 30 * 86_400;

const PREVIEW_PREFIX = 'pv_';

/**
 * The origins the app itself is served on: `APP_URL`'s, and when that names the loopback host (`localhost`, the
 * development default), its loopback aliases on the same scheme and port. Never what the request says about itself
 * (`Host`): a client sets any Host it likes.
 */
function appOrigins(appUrl: string): string[] {
  const url = new URL(appUrl);
  if (url.hostname !== 'localhost') return [url.origin];
  const port = url.port ? `:${url.port}` : '';
  return [url.origin, `${url.protocol}//127.0.0.1${port}`, `${url.protocol}//[::1]${port}`];
}

/**
 * The origin of the page that made a request. A same-origin GET carries no Origin header: a browser marks it
 * `Sec-Fetch-Site: same-origin`, which names the app's own origin (`APP_URL`'s), never the request's `Host`.
 */
export function requestOrigin(req: Request, appOrigin: string): string | undefined {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') return origin;
  if (req.headers['sec-fetch-site'] === 'same-origin') return appOrigin;
  return undefined;
}

/**
 * The public side of deploying: which Spark a token names, whether the calling site is allowed,
 * visitors and their tokens, and the Pulse's connect.
 */
@Injectable()
export class WidgetService {
  private readonly logger = new Logger(WidgetService.name);

  constructor(
    private readonly repo: DeployRepository,
    private readonly conversations: ConversationsRepository,
    private readonly accounts: AccountsRepository,
    private readonly jwt: JwtService,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  get appOrigin(): string {
    return new URL(this.config.APP_URL).origin;
  }

  /** Whether `origin` is the app's own (the owner's preview): compared with APP_URL only, never with `Host`. */
  isAppOrigin(origin: string): boolean {
    return appOrigins(this.config.APP_URL).includes(origin);
  }

  /** The Spark a token names (404 for an unknown, rotated or unpublished token). */
  async resolve(token: string): Promise<Omit<WidgetContext, 'origin'>> {
    if (token.startsWith(PREVIEW_PREFIX)) {
      const claims = await verifyExpiring<{ sub: string }>(this.jwt, token.slice(PREVIEW_PREFIX.length), {
        audience: PREVIEW_AUDIENCE,
      }).catch(() => undefined);
      const spark = claims && (await this.repo.findSpark(claims.sub));
      if (!spark) throw DomainError.of('DEPLOY_TOKEN_INVALID');
      return { spark, deployment: null, scope: 'preview', rotation: 0 };
    }
    const found = await this.repo.findByTokenHash(hashToken(token));
    if (!found) throw DomainError.of('DEPLOY_TOKEN_INVALID');
    return {
      spark: found.spark,
      deployment: found.deployment,
      scope: found.deployment.id,
      rotation: found.deployment.rotation,
    };
  }

  /** May this page use the widget? The app's own origin always may (the preview); others must be listed. */
  async allowed(ctx: Omit<WidgetContext, 'origin'>, origin: string | undefined): Promise<boolean> {
    if (!origin) return false;
    if (this.isAppOrigin(origin)) return true;
    if (!ctx.deployment) return false;
    return this.repo.isAllowed(ctx.spark.id, origin);
  }

  /** A short-lived token for the owner's live preview (works only on the app's own origin). */
  async previewToken(sparkId: string): Promise<string> {
    const jwt = await this.jwt.signAsync(
      { sub: sparkId },
      { audience: PREVIEW_AUDIENCE, expiresIn: PREVIEW_TTL_SECONDS },
    );
    return `${PREVIEW_PREFIX}${jwt}`;
  }

  async widgetConfig(ctx: WidgetContext): Promise<WidgetConfigView> {
    if (ctx.deployment && !ctx.deployment.firstSeenAt && !this.isAppOrigin(ctx.origin)) {
      await this.firstSighting(ctx.deployment, ctx.spark, ctx.origin);
    }
    const o = ctx.spark.options;
    return {
      sparkId: ctx.spark.id,
      name: ctx.spark.name,
      language: o.language,
      initialMessage: o.initialMessage,
      position: ctx.deployment?.position ?? 'right',
      theme: {
        primary: o.theme?.palette?.primary ?? '#4f46e5',
        secondary: o.theme?.palette?.secondary ?? '#eef2ff',
        icon: o.theme?.icon ?? null,
        iconPaths: [...widgetIconPaths(o.theme?.icon)],
      },
      retentionDays: ctx.spark.visitorRetentionDays,
    };
  }

  /**
   * Records the first sighting of a deployment's widget on an allowed site and, with it (one
   * transaction), the deploy assistant's message telling the owner, in their language, in their deploy
   * conversation (the one last written to; none yet: nothing is posted, the panel shows the sighting).
   * Only the call that records it tells it; rotating the token clears it, so the new code's first
   * sighting is told again. A failure is logged and the config still served: nothing was recorded,
   * the next page view tries again. The message is then published on the conversation's channel.
   */
  private async firstSighting(deployment: DeploymentRow, spark: SparkRow, origin: string): Promise<void> {
    let told: MessageRow | undefined;
    try {
      const owner = await this.accounts.findUserById(spark.userId);
      await this.repo.markSeen(deployment.id, origin, async (tx) => {
        const conversations = this.conversations.withTx(tx);
        const conversation = await conversations.lastActiveSystem(spark.userId, 'deploy');
        if (!conversation) return;
        const content = firstSeenMessage(owner?.language ?? 'es', spark.name, origin);
        told = await conversations.addMessage(conversation.id, 'ai', { content });
      });
    } catch (err) {
      this.logger.error({ err }, `could not record the first sighting of deployment ${deployment.id}`);
      return;
    }
    if (!told) return;
    const message = told;
    await publishMessage(this.redis, this.config.QUEUE_PREFIX, message.conversationId, toWireMessage(message), (t) =>
      this.logger.warn(t),
    );
  }

  // — visitors —

  private async sign(ctx: WidgetContext, visitorId: string): Promise<VisitorSessionView> {
    const claims: VisitorClaims = { sub: visitorId, spk: ctx.spark.id, scp: ctx.scope, rot: ctx.rotation };
    const ttl = this.config.VISITOR_TOKEN_TTL_SECONDS;
    const visitorToken = await this.jwt.signAsync(claims, { audience: VISITOR_AUDIENCE, expiresIn: ttl });
    return { visitorToken, expiresAt: new Date(Date.now() + ttl * 1000).toISOString() };
  }

  private async claims(ctx: WidgetContext, token: string, ignoreExpiration: boolean) {
    // Required even when an expired one is accepted (to keep the same visitor): a token that never expires was
    // not made here.
    const claims = await verifyExpiring<VisitorClaims & { iat: number }>(this.jwt, token, {
      audience: VISITOR_AUDIENCE,
      ignoreExpiration,
    }).catch(() => undefined);
    if (!claims || claims.spk !== ctx.spark.id || claims.scp !== ctx.scope || claims.rot !== ctx.rotation) {
      return undefined;
    }
    return claims;
  }

  /**
   * A visitor token; presenting the previous one (even expired, within 30 days) keeps the same visitor. A new
   * visitor is made only once `beforeNew` let it (the hour's limits of new visitors; it throws 429 past them).
   */
  async session(
    ctx: WidgetContext,
    previous: string | undefined,
    beforeNew: () => Promise<void> = () => Promise.resolve(),
  ): Promise<VisitorSessionView> {
    const old = previous ? await this.claims(ctx, previous, true) : undefined;
    const recent = old && Date.now() / 1000 - old.iat < RENEW_WITHIN_SECONDS;
    const known = recent ? await this.repo.findVisitor(ctx.spark.id, old.sub) : undefined;
    if (known) return this.sign(ctx, known.id);
    await beforeNew();
    return this.sign(ctx, (await this.repo.createVisitor(ctx.spark.id)).id);
  }

  /** The visitor behind `Authorization: Bearer <visitor token>`, or 401. */
  async visitor(ctx: WidgetContext, token: string | undefined): Promise<string> {
    const claims = token ? await this.claims(ctx, token, false) : undefined;
    if (!claims) throw DomainError.of('VISITOR_TOKEN_INVALID');
    return claims.sub;
  }

  newConversation(ctx: WidgetContext, visitorId: string): Promise<ConversationRow> {
    return this.repo.createVisitorConversation({
      userId: ctx.spark.userId,
      sparkId: ctx.spark.id,
      visitorId,
      origin: ctx.origin,
    });
  }

  /** The visitor's own conversation, or 404 (another visitor's does not exist for them). */
  async conversation(ctx: WidgetContext, visitorId: string, conversationId: string): Promise<ConversationRow> {
    const row = await this.repo.visitorConversation(ctx.spark.id, visitorId, conversationId);
    if (!row) throw DomainError.notFound();
    return row;
  }

  /** Deletes the visitor's own conversation (404 for any other, as reading it would be). */
  async deleteConversation(ctx: WidgetContext, visitorId: string, conversationId: string): Promise<void> {
    if (!(await this.repo.deleteVisitorConversation(ctx.spark.id, visitorId, conversationId))) {
      throw DomainError.notFound();
    }
  }

  async leaveContact(ctx: WidgetContext, visitorId: string, email: string): Promise<void> {
    await this.repo.leaveContact(visitorId, email);
  }

  // — the Pulse (WordPress) —

  /**
   * A site presents a one-time site key and its origin: the origin joins the Spark's allow-list and
   * the site gets what it needs to print the snippet. The key is spent by the first call.
   */
  async connect(siteKey: string, originInput: string, scriptUrl: string): Promise<ConnectView> {
    const origin = normalizeOrigin(originInput);
    const used = await this.repo.consumeSiteKey(hashToken(siteKey), origin);
    if (!used) throw DomainError.of('SITE_KEY_INVALID');
    const deployment = await withLiveToken(
      this.repo,
      this.config.JWT_SECRET,
      await this.repo.findBySpark(used.sparkId),
    );
    const spark = await this.repo.findSpark(used.sparkId);
    const token = deployment && openDeployToken(this.config.JWT_SECRET, deployment.tokenSealed);
    if (!deployment || !spark || !token) throw DomainError.of('NOT_PUBLISHED');
    await this.repo.addOrigin(used.sparkId, origin, 'pulse');
    return {
      sparkId: spark.id,
      name: spark.name,
      token,
      scriptUrl,
      snippet: snippetFor(scriptUrl, token),
      origin,
      language: spark.options.language,
      position: deployment.position,
    };
  }
}
