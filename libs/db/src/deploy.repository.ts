import { createHash, randomBytes } from 'node:crypto';
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from './client';
import { ConversationsRepository, type ConversationRow } from './conversations.repository';
import { forgetOpenQuestionsOf } from './unanswered.repository';
import {
  allowedOrigins,
  conversations,
  deployments,
  siteKeys,
  sparks,
  visitorConversations,
  visitors,
} from './schema/index';

export type DeploymentRow = typeof deployments.$inferSelect;
export type AllowedOriginRow = typeof allowedOrigins.$inferSelect;
export type VisitorRow = typeof visitors.$inferSelect;
export type SparkRowForDeploy = typeof sparks.$inferSelect;

/** Published Sparks, their allow-lists, site keys, visitors and visitors' conversations. */
export class DeployRepository {
  constructor(
    private readonly db: Database,
    /** Opens a visitor's conversation, inside the transaction that links it to the visitor (`withTx`). */
    private readonly conversations = new ConversationsRepository(db),
  ) {}

  // — deployments (owner side) —

  async findBySpark(sparkId: string): Promise<DeploymentRow | undefined> {
    const [row] = await this.db.select().from(deployments).where(eq(deployments.sparkId, sparkId));
    return row;
  }

  async countPublished(userId: string): Promise<number> {
    const [{ n }] = await this.db.select({ n: count() }).from(deployments).where(eq(deployments.userId, userId));
    return n;
  }

  /**
   * Publishes a Spark when the owner has fewer than `limit` published (checked and written under a
   * lock on the owner's deployments, so two parallel publishes cannot both pass the limit).
   * Answers undefined when the limit is reached; an already published Spark is returned as is.
   */
  async publish(
    v: { sparkId: string; userId: string; tokenHash: string; tokenSealed: string; tokenPrefix: string },
    limit: number,
    channel: 'widget' | 'pulse',
  ): Promise<{ row: DeploymentRow; created: boolean } | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'deploy:' + v.userId}))`);
      const [existing] = await tx.select().from(deployments).where(eq(deployments.sparkId, v.sparkId));
      if (existing) {
        if (existing.channel === channel) return { row: existing, created: false };
        const [row] = await tx.update(deployments).set({ channel }).where(eq(deployments.id, existing.id)).returning();
        return { row, created: false };
      }
      const [{ n }] = await tx.select({ n: count() }).from(deployments).where(eq(deployments.userId, v.userId));
      if (n >= limit) return undefined;
      const [row] = await tx
        .insert(deployments)
        .values({ ...v, channel })
        .returning();
      return { row, created: true };
    });
  }

  async unpublish(sparkId: string): Promise<boolean> {
    const rows = await this.db.delete(deployments).where(eq(deployments.sparkId, sparkId)).returning();
    return rows.length > 0;
  }

  async rotate(
    sparkId: string,
    v: { tokenHash: string; tokenSealed: string; tokenPrefix: string },
  ): Promise<DeploymentRow | undefined> {
    const [row] = await this.db
      .update(deployments)
      .set({ ...v, rotation: sql`${deployments.rotation} + 1`, firstSeenAt: null, firstSeenOrigin: null })
      .where(eq(deployments.sparkId, sparkId))
      .returning();
    return row;
  }

  /** The user's published Sparks (id and name), oldest publication first. */
  async publishedOf(userId: string): Promise<Array<{ sparkId: string; name: string }>> {
    return this.db
      .select({ sparkId: deployments.sparkId, name: sparks.name })
      .from(deployments)
      .innerJoin(sparks, eq(sparks.id, deployments.sparkId))
      .where(eq(deployments.userId, userId))
      .orderBy(deployments.publishedAt, deployments.id);
  }

  /** Unpublishes one of the user's Sparks (the deploy assistant): false when it was not published. */
  async unpublishOwned(userId: string, sparkId: string): Promise<boolean> {
    const rows = await this.db
      .delete(deployments)
      .where(and(eq(deployments.sparkId, sparkId), eq(deployments.userId, userId)))
      .returning({ id: deployments.id });
    return rows.length > 0;
  }

  /**
   * Kills the token of one of the user's Sparks at once, where no secret is at hand (the deploy
   * assistant runs in the worker): its hash becomes one of no known token, its visitors' sessions end
   * (rotation), and the api gives it a new token the next time the owner looks (`reissueToken`).
   */
  async revokeToken(userId: string, sparkId: string): Promise<boolean> {
    const rows = await this.db
      .update(deployments)
      .set({
        tokenHash: createHash('sha256').update(randomBytes(32)).digest('hex'),
        tokenSealed: '',
        tokenPrefix: '',
        rotation: sql`${deployments.rotation} + 1`,
        firstSeenAt: null,
        firstSeenOrigin: null,
      })
      .where(and(eq(deployments.sparkId, sparkId), eq(deployments.userId, userId)))
      .returning({ id: deployments.id });
    return rows.length > 0;
  }

  /** A new token for a deployment whose token was revoked (once: a parallel call keeps the first). */
  async reissueToken(
    sparkId: string,
    v: { tokenHash: string; tokenSealed: string; tokenPrefix: string },
  ): Promise<DeploymentRow | undefined> {
    await this.db
      .update(deployments)
      .set(v)
      .where(and(eq(deployments.sparkId, sparkId), eq(deployments.tokenSealed, '')));
    return this.findBySpark(sparkId);
  }

  async setPosition(sparkId: string, position: 'left' | 'right'): Promise<void> {
    await this.db.update(deployments).set({ position }).where(eq(deployments.sparkId, sparkId));
  }

  /** The deployment a public token names, with its Spark. */
  async findByTokenHash(
    tokenHash: string,
  ): Promise<{ deployment: DeploymentRow; spark: SparkRowForDeploy } | undefined> {
    const [row] = await this.db
      .select({ deployment: deployments, spark: sparks })
      .from(deployments)
      .innerJoin(sparks, eq(sparks.id, deployments.sparkId))
      .where(eq(deployments.tokenHash, tokenHash));
    return row;
  }

  async findSpark(sparkId: string): Promise<SparkRowForDeploy | undefined> {
    const [row] = await this.db.select().from(sparks).where(eq(sparks.id, sparkId));
    return row;
  }

  /**
   * Records the first time the widget ran on an allowed site (once per token: rotating clears it).
   * Answers true only to the call that set it; `then` runs in the same transaction (what is told of
   * the sighting is written with it, or neither is and the next sighting tries again).
   */
  async markSeen(deploymentId: string, origin: string, then?: (tx: Transaction) => Promise<void>): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(deployments)
        .set({ firstSeenAt: sql`now()`, firstSeenOrigin: origin })
        .where(and(eq(deployments.id, deploymentId), isNull(deployments.firstSeenAt)))
        .returning({ id: deployments.id });
      if (rows.length === 0) return false;
      await then?.(tx);
      return true;
    });
  }

  // — allow-list —

  async origins(sparkId: string): Promise<AllowedOriginRow[]> {
    return this.db
      .select()
      .from(allowedOrigins)
      .where(eq(allowedOrigins.sparkId, sparkId))
      .orderBy(allowedOrigins.createdAt, allowedOrigins.id);
  }

  async isAllowed(sparkId: string, origin: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: allowedOrigins.id })
      .from(allowedOrigins)
      .where(and(eq(allowedOrigins.sparkId, sparkId), eq(allowedOrigins.origin, origin)));
    return !!row;
  }

  async addOrigin(sparkId: string, origin: string, source: 'owner' | 'pulse'): Promise<void> {
    await this.db.insert(allowedOrigins).values({ sparkId, origin, source }).onConflictDoNothing();
  }

  async removeOrigin(sparkId: string, origin: string): Promise<boolean> {
    const rows = await this.db
      .delete(allowedOrigins)
      .where(and(eq(allowedOrigins.sparkId, sparkId), eq(allowedOrigins.origin, origin)))
      .returning();
    return rows.length > 0;
  }

  // — site keys —

  async createSiteKey(v: { sparkId: string; userId: string; keyHash: string; expiresAt: Date }): Promise<void> {
    await this.db.transaction(async (tx) => {
      // One live key per Spark: a new one replaces the unused ones.
      await tx.delete(siteKeys).where(and(eq(siteKeys.sparkId, v.sparkId), isNull(siteKeys.usedAt)));
      await tx.insert(siteKeys).values(v);
    });
  }

  /** Uses a site key once: answers its Spark when the key was live, and marks it used in the same statement. */
  async consumeSiteKey(keyHash: string, origin: string): Promise<{ sparkId: string; userId: string } | undefined> {
    const [row] = await this.db
      .update(siteKeys)
      .set({ usedAt: sql`now()`, usedOrigin: origin })
      .where(and(eq(siteKeys.keyHash, keyHash), isNull(siteKeys.usedAt), gt(siteKeys.expiresAt, sql`now()`)))
      .returning({ sparkId: siteKeys.sparkId, userId: siteKeys.userId });
    return row;
  }

  // — visitors —

  async createVisitor(sparkId: string): Promise<VisitorRow> {
    const [row] = await this.db.insert(visitors).values({ sparkId }).returning();
    return row;
  }

  async findVisitor(sparkId: string, visitorId: string): Promise<VisitorRow | undefined> {
    const [row] = await this.db
      .update(visitors)
      .set({ lastSeenAt: sql`now()` })
      .where(and(eq(visitors.id, visitorId), eq(visitors.sparkId, sparkId)))
      .returning();
    return row;
  }

  async leaveContact(visitorId: string, email: string): Promise<void> {
    await this.db
      .update(visitors)
      .set({ contactEmail: email, contactAt: sql`now()` })
      .where(eq(visitors.id, visitorId));
  }

  /** Creates the `widget` conversation (owned by the Spark's owner) and ties it to its visitor. */
  async createVisitorConversation(v: {
    userId: string;
    sparkId: string;
    visitorId: string;
    origin: string | null;
  }): Promise<ConversationRow> {
    return this.db.transaction(async (tx) => {
      const conversation = await this.conversations.withTx(tx).create(v.userId, { kind: 'widget', sparkId: v.sparkId });
      await tx
        .insert(visitorConversations)
        .values({ conversationId: conversation.id, visitorId: v.visitorId, sparkId: v.sparkId, origin: v.origin });
      return conversation;
    });
  }

  /** A conversation of this visitor on this Spark, or undefined (another visitor's is not found). */
  async visitorConversation(
    sparkId: string,
    visitorId: string,
    conversationId: string,
  ): Promise<typeof conversations.$inferSelect | undefined> {
    const [row] = await this.db
      .select({ conversation: conversations })
      .from(visitorConversations)
      .innerJoin(conversations, eq(conversations.id, visitorConversations.conversationId))
      .where(
        and(
          eq(visitorConversations.conversationId, conversationId),
          eq(visitorConversations.visitorId, visitorId),
          eq(visitorConversations.sparkId, sparkId),
        ),
      );
    return row?.conversation;
  }

  /**
   * Deletes a visitor's own conversation on this Spark, with its messages and the questions asked in it that the
   * owner has not answered; false when it is not theirs (or not there).
   */
  async deleteVisitorConversation(sparkId: string, visitorId: string, conversationId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ id: visitorConversations.conversationId })
        .from(visitorConversations)
        .where(
          and(
            eq(visitorConversations.conversationId, conversationId),
            eq(visitorConversations.visitorId, visitorId),
            eq(visitorConversations.sparkId, sparkId),
          ),
        )
        .for('update');
      if (!row) return false;
      await forgetOpenQuestionsOf(tx, [conversationId]);
      await this.conversations.withTx(tx).deleteByIds([conversationId]);
      return true;
    });
  }

  /**
   * The retention sweep: deletes up to `limit` website visitors' conversations whose last message is older than
   * their Spark's `visitor_retention_days` (with the questions asked in them that are still open); answers how many.
   */
  async sweepVisitorConversations(now: Date, limit: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.execute<{ id: string }>(sql`
        SELECT c.id FROM conversations c JOIN sparks s ON s.id = c.spark_id
        WHERE c.kind = 'widget' AND c.updated_at < ${now}::timestamptz - make_interval(days => s.visitor_retention_days)
        ORDER BY c.updated_at LIMIT ${limit} FOR UPDATE OF c SKIP LOCKED`);
      const ids = rows.rows.map((r) => r.id);
      await forgetOpenQuestionsOf(tx, ids);
      await this.conversations.withTx(tx).deleteByIds(ids);
      return ids.length;
    });
  }

  /**
   * The retention sweep: deletes up to `limit` visitors with no conversation left who were not seen within their
   * Spark's retention (and the e-mail address one may have left); answers how many.
   */
  async sweepIdleVisitors(now: Date, limit: number): Promise<number> {
    const rows = await this.db.execute<{ id: string }>(sql`
      DELETE FROM visitors WHERE id IN (
        SELECT v.id FROM visitors v JOIN sparks s ON s.id = v.spark_id
        WHERE v.last_seen_at < ${now}::timestamptz - make_interval(days => s.visitor_retention_days)
          AND NOT EXISTS (SELECT 1 FROM visitor_conversations vc WHERE vc.visitor_id = v.id)
        LIMIT ${limit})
      RETURNING id`);
    return rows.rows.length;
  }

  /** The owner's read-only list of a Spark's visitor conversations, newest activity first. */
  async sparkConversations(sparkId: string, offset: number, limit: number) {
    const where = eq(visitorConversations.sparkId, sparkId);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({
          conversationId: visitorConversations.conversationId,
          visitorId: visitorConversations.visitorId,
          origin: visitorConversations.origin,
          createdAt: visitorConversations.createdAt,
          updatedAt: conversations.updatedAt,
          contactEmail: visitors.contactEmail,
          messages: sql<number>`(select count(*)::int from messages m where m.conversation_id = ${conversations.id})`,
          firstQuestion: sql<string | null>`(select m.data->>'content' from messages m
            where m.conversation_id = ${conversations.id} and m.type = 'human'
            order by m.created_at, m.id limit 1)`,
        })
        .from(visitorConversations)
        .innerJoin(conversations, eq(conversations.id, visitorConversations.conversationId))
        .innerJoin(visitors, eq(visitors.id, visitorConversations.visitorId))
        .where(where)
        .orderBy(desc(conversations.updatedAt), desc(visitorConversations.conversationId))
        .offset(offset)
        .limit(limit),
      this.db.select({ total: count() }).from(visitorConversations).where(where),
    ]);
    return { rows, total };
  }
}
