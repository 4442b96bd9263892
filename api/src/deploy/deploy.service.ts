import { Inject, Injectable } from '@nestjs/common';
import type { DeployChannel, DeploymentView, SiteKeyView } from '@sparks/contracts';
import { DomainError, type AppConfig } from '@sparks/core';
import {
  AccountsRepository,
  ConversationsRepository,
  DeployRepository,
  SparksRepository,
  toWireMessage,
} from '@sparks/db';
import { deploymentLimit } from '@sparks/domain';
import { CONFIG } from '@sparks/nest';
import { SparksService } from '../sparks/sparks.service';
import { DeploymentCap } from './deployment-cap';
import { RefusedSites } from './refused-sites';
import {
  hashToken,
  newDeployToken,
  newSiteKey,
  normalizeOrigin,
  openDeployToken,
  snippetFor,
  withLiveToken,
} from './deploy-secrets';

const SITE_KEY_TTL_MS = 24 * 3600 * 1000;

/** The owner's side of deploying: publish, unpublish, rotate, the allow-list, site keys, visitors' chats. */
@Injectable()
export class DeployService {
  constructor(
    private readonly repo: DeployRepository,
    private readonly sparks: SparksService,
    private readonly accounts: AccountsRepository,
    private readonly conversations: ConversationsRepository,
    private readonly sparksRepo: SparksRepository,
    private readonly cap: DeploymentCap,
    private readonly refused: RefusedSites,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  get scriptUrl(): string {
    return `${this.config.APP_URL}/widget.js`;
  }

  async view(userId: string, sparkId: string): Promise<DeploymentView> {
    const spark = await this.sparks.owned(userId, sparkId);
    const [found, origins, usedToday] = await Promise.all([
      this.repo.findBySpark(sparkId),
      this.repo.origins(sparkId),
      this.cap.usedToday(sparkId),
    ]);
    const deployment = await withLiveToken(this.repo, this.config.JWT_SECRET, found);
    const refused = deployment
      ? await this.refused.list(
          sparkId,
          origins.map((o) => o.origin),
        )
      : [];
    const token = deployment ? (openDeployToken(this.config.JWT_SECRET, deployment.tokenSealed) ?? null) : null;
    return {
      sparkId,
      published: !!deployment,
      channel: deployment?.channel ?? null,
      position: deployment?.position ?? 'right',
      token,
      tokenPrefix: deployment?.tokenPrefix ?? null,
      snippet: token ? snippetFor(this.scriptUrl, token) : null,
      scriptUrl: this.scriptUrl,
      origins: origins.map((o) => ({ origin: o.origin, source: o.source, createdAt: o.createdAt.toISOString() })),
      publishedAt: deployment?.publishedAt.toISOString() ?? null,
      firstSeenAt: deployment?.firstSeenAt?.toISOString() ?? null,
      firstSeenOrigin: deployment?.firstSeenOrigin ?? null,
      visitorRetentionDays: spark.visitorRetentionDays,
      dailyLimit: spark.widgetDailyLimit,
      usedToday,
      refusedSites: refused,
    };
  }

  /** How many visitor messages the Spark's widget answers a day (1–10,000; issue 30). Kept while unpublished. */
  async setDailyLimit(userId: string, sparkId: string, dailyLimit: number): Promise<DeploymentView> {
    await this.sparks.owned(userId, sparkId);
    if (!(await this.sparksRepo.setWidgetDailyLimit(userId, sparkId, dailyLimit))) throw DomainError.notFound();
    return this.view(userId, sparkId);
  }

  /** How many days the Spark's website visitors' conversations are kept after their last message (1–730). */
  async setRetention(userId: string, sparkId: string, days: number): Promise<DeploymentView> {
    await this.sparks.owned(userId, sparkId);
    if (!(await this.sparksRepo.setVisitorRetention(userId, sparkId, days))) throw DomainError.notFound();
    return this.view(userId, sparkId);
  }

  /** The plan's `limits.deployments.value`: how many Sparks may be published at once (`deploymentLimit`). */
  async deploymentLimit(userId: string): Promise<number> {
    const [tenant] = await this.accounts.tenantsOf(userId);
    return tenant ? deploymentLimit(tenant) : 0;
  }

  async publish(
    userId: string,
    sparkId: string,
    opts: { channel?: DeployChannel; position?: 'left' | 'right' } = {},
  ): Promise<DeploymentView> {
    await this.sparks.owned(userId, sparkId);
    const limit = await this.deploymentLimit(userId);
    const fresh = newDeployToken(this.config.JWT_SECRET);
    const done = await this.repo.publish(
      { sparkId, userId, tokenHash: fresh.tokenHash, tokenSealed: fresh.tokenSealed, tokenPrefix: fresh.tokenPrefix },
      limit,
      opts.channel ?? 'widget',
    );
    // None allowed is said as such; "unpublish one" only when the plan's places are all taken.
    if (!done && limit === 0) throw DomainError.of('DEPLOYMENT_NOT_INCLUDED');
    if (!done) throw DomainError.of('DEPLOYMENT_LIMIT', { limit });
    if (opts.position) await this.repo.setPosition(sparkId, opts.position);
    return this.view(userId, sparkId);
  }

  async unpublish(userId: string, sparkId: string): Promise<DeploymentView> {
    await this.sparks.owned(userId, sparkId);
    await this.repo.unpublish(sparkId);
    return this.view(userId, sparkId);
  }

  /** A new token; the old one stops working at once (and every visitor session issued under it). */
  async rotate(userId: string, sparkId: string): Promise<DeploymentView> {
    await this.sparks.owned(userId, sparkId);
    const fresh = newDeployToken(this.config.JWT_SECRET);
    const row = await this.repo.rotate(sparkId, {
      tokenHash: fresh.tokenHash,
      tokenSealed: fresh.tokenSealed,
      tokenPrefix: fresh.tokenPrefix,
    });
    if (!row) throw DomainError.of('NOT_PUBLISHED');
    return this.view(userId, sparkId);
  }

  async addOrigin(userId: string, sparkId: string, input: string): Promise<DeploymentView> {
    await this.sparks.owned(userId, sparkId);
    await this.repo.addOrigin(sparkId, normalizeOrigin(input), 'owner');
    return this.view(userId, sparkId);
  }

  async removeOrigin(userId: string, sparkId: string, input: string): Promise<DeploymentView> {
    await this.sparks.owned(userId, sparkId);
    await this.repo.removeOrigin(sparkId, normalizeOrigin(input));
    return this.view(userId, sparkId);
  }

  async newSiteKey(userId: string, sparkId: string): Promise<SiteKeyView> {
    await this.sparks.owned(userId, sparkId);
    if (!(await this.repo.findBySpark(sparkId))) throw DomainError.of('NOT_PUBLISHED');
    const siteKey = newSiteKey();
    const expiresAt = new Date(Date.now() + SITE_KEY_TTL_MS);
    await this.repo.createSiteKey({ sparkId, userId, keyHash: hashToken(siteKey), expiresAt });
    return { siteKey, expiresAt: expiresAt.toISOString() };
  }

  async visitorConversations(userId: string, sparkId: string, page: number, limit: number) {
    await this.sparks.owned(userId, sparkId);
    const { rows, total } = await this.repo.sparkConversations(sparkId, (page - 1) * limit, limit);
    return {
      items: rows.map((r) => ({
        conversationId: r.conversationId,
        visitorId: r.visitorId,
        origin: r.origin,
        messages: r.messages,
        firstQuestion: r.firstQuestion,
        contactEmail: r.contactEmail,
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
      })),
      meta: { total, page, limit },
    };
  }

  async visitorConversation(userId: string, sparkId: string, conversationId: string) {
    await this.sparks.owned(userId, sparkId);
    const conversation = await this.conversations.findOwned(userId, conversationId);
    if (!conversation || conversation.kind !== 'widget' || conversation.sparkId !== sparkId) {
      throw DomainError.notFound();
    }
    const messages = await this.conversations.history(conversation.id);
    return { conversationId, sparkId, messages: messages.map(toWireMessage) };
  }
}
