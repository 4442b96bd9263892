import { and, eq, sql } from 'drizzle-orm';
import type { Database } from './client';
import { integrationConnections } from './schema/index';

export type IntegrationConnectionRow = typeof integrationConnections.$inferSelect;

export interface SealedTokens {
  accessTokenSealed: string;
  refreshTokenSealed: string | null;
  expiresAt: Date;
  scopes: string;
}

/** Spark connections to document-sharing services and their (sealed) tokens. No rules here: the services own them. */
export class IntegrationsRepository {
  constructor(private readonly db: Database) {}

  async find(sparkId: string, provider: string): Promise<IntegrationConnectionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(integrationConnections)
      .where(and(eq(integrationConnections.sparkId, sparkId), eq(integrationConnections.provider, provider)));
    return row;
  }

  async listForSpark(sparkId: string): Promise<IntegrationConnectionRow[]> {
    return this.db
      .select()
      .from(integrationConnections)
      .where(eq(integrationConnections.sparkId, sparkId))
      .orderBy(integrationConnections.createdAt);
  }

  /** Connects (or connects again, replacing the tokens): one connection per Spark and provider. */
  async upsert(
    v: { sparkId: string; userId: string; provider: string; service: string } & SealedTokens,
  ): Promise<IntegrationConnectionRow> {
    const [row] = await this.db
      .insert(integrationConnections)
      .values(v)
      .onConflictDoUpdate({
        target: [integrationConnections.sparkId, integrationConnections.provider],
        set: {
          userId: v.userId,
          service: v.service,
          accessTokenSealed: v.accessTokenSealed,
          refreshTokenSealed: v.refreshTokenSealed,
          expiresAt: v.expiresAt,
          scopes: v.scopes,
          updatedAt: sql`now()`,
        },
      })
      .returning();
    return row;
  }

  /**
   * Runs `fn` on the connection's row locked (`FOR UPDATE`), and writes the tokens it answers: two
   * processes that both see the access token about to expire refresh it once, the second one finding it
   * fresh. Answers what `fn` answered, or undefined when the connection is gone.
   */
  async withLocked<T>(
    id: string,
    fn: (row: IntegrationConnectionRow) => Promise<{ tokens?: SealedTokens; result: T }>,
  ): Promise<T | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(integrationConnections)
        .where(eq(integrationConnections.id, id))
        .for('update');
      if (!row) return undefined;
      const { tokens, result } = await fn(row);
      if (tokens) {
        await tx
          .update(integrationConnections)
          .set({ ...tokens, updatedAt: sql`now()` })
          .where(eq(integrationConnections.id, id));
      }
      return result;
    });
  }

  /** Removes the connection with its tokens and its followed items; answers whether there was one. */
  async remove(sparkId: string, provider: string): Promise<boolean> {
    const rows = await this.db
      .delete(integrationConnections)
      .where(and(eq(integrationConnections.sparkId, sparkId), eq(integrationConnections.provider, provider)))
      .returning({ id: integrationConnections.id });
    return rows.length > 0;
  }
}
