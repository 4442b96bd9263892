import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from './client';
import { integrationConnections, integrationDrives, integrationItems } from './schema/index';

export type IntegrationConnectionRow = typeof integrationConnections.$inferSelect;
export type IntegrationItemRow = typeof integrationItems.$inferSelect;
export type IntegrationDriveRow = typeof integrationDrives.$inferSelect;

/** One drive item of a connection. */
export interface ItemKey {
  connectionId: string;
  driveId: string;
  itemId: string;
}

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

  /** For the worker, which acts on a connection it was handed by id. */
  async findById(id: string): Promise<IntegrationConnectionRow | undefined> {
    const [row] = await this.db.select().from(integrationConnections).where(eq(integrationConnections.id, id));
    return row;
  }

  async findItem(key: ItemKey): Promise<IntegrationItemRow | undefined> {
    const [row] = await this.db
      .select()
      .from(integrationItems)
      .where(
        and(
          eq(integrationItems.connectionId, key.connectionId),
          eq(integrationItems.driveId, key.driveId),
          eq(integrationItems.itemId, key.itemId),
        ),
      );
    return row;
  }

  /**
   * A file the owner picked: followed from now on, under the path the picker showed (what it was imported as, its
   * eTag and document, stay as they are until the import writes them).
   */
  async notePicked(key: ItemKey & { path: string }): Promise<IntegrationItemRow> {
    const [row] = await this.db
      .insert(integrationItems)
      .values(key)
      .onConflictDoUpdate({
        target: [integrationItems.connectionId, integrationItems.driveId, integrationItems.itemId],
        set: { path: key.path, updatedAt: sql`now()` },
      })
      .returning();
    return row;
  }

  /** What an import found: the eTag it read, the document that holds it, or why it was skipped. */
  async recordImport(
    key: ItemKey & { path: string; eTag: string | null; documentId: string | null; skipped: string | null },
  ): Promise<IntegrationItemRow> {
    const [row] = await this.db
      .insert(integrationItems)
      .values(key)
      .onConflictDoUpdate({
        target: [integrationItems.connectionId, integrationItems.driveId, integrationItems.itemId],
        set: {
          path: key.path,
          eTag: key.eTag,
          documentId: key.documentId,
          skipped: key.skipped,
          updatedAt: sql`now()`,
        },
      })
      .returning();
    return row;
  }

  /** Where documents came from: the followed item and its connection's service, by document id. */
  async sourcesOf(documentIds: string[]): Promise<Map<string, { service: string; path: string }>> {
    const found = new Map<string, { service: string; path: string }>();
    if (documentIds.length === 0) return found;
    const rows = await this.db
      .select({ documentId: integrationItems.documentId, path: integrationItems.path })
      .from(integrationItems)
      .where(inArray(integrationItems.documentId, documentIds));
    for (const row of rows)
      if (row.documentId) found.set(row.documentId, { service: serviceOfPath(row.path), path: row.path });
    return found;
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

  /** Removes the connection with its tokens and its followed items; answers its id, or undefined when there was none. */
  async remove(sparkId: string, provider: string): Promise<string | undefined> {
    const rows = await this.db
      .delete(integrationConnections)
      .where(and(eq(integrationConnections.sparkId, sparkId), eq(integrationConnections.provider, provider)))
      .returning({ id: integrationConnections.id });
    return rows[0]?.id;
  }

  /** The ids of every connection (the worker makes sure each has its sync scheduler). */
  async listIds(): Promise<string[]> {
    const rows = await this.db.select({ id: integrationConnections.id }).from(integrationConnections);
    return rows.map((r) => r.id);
  }

  /** The files a connection follows. */
  async itemsOf(connectionId: string): Promise<IntegrationItemRow[]> {
    return this.db
      .select()
      .from(integrationItems)
      .where(eq(integrationItems.connectionId, connectionId))
      .orderBy(integrationItems.createdAt);
  }

  /** Where the delta query of each of the connection's drives continues. */
  async drivesOf(connectionId: string): Promise<IntegrationDriveRow[]> {
    return this.db.select().from(integrationDrives).where(eq(integrationDrives.connectionId, connectionId));
  }

  /** Saves where the drive's delta query continues, after a round that went through. */
  async saveDeltaLink(connectionId: string, driveId: string, deltaLink: string): Promise<void> {
    await this.db
      .insert(integrationDrives)
      .values({ connectionId, driveId, deltaLink, syncedAt: new Date() })
      .onConflictDoUpdate({
        target: [integrationDrives.connectionId, integrationDrives.driveId],
        set: { deltaLink, syncedAt: new Date() },
      });
  }

  /** Forgets a drive the connection no longer follows any file of. */
  async removeDrive(connectionId: string, driveId: string): Promise<void> {
    await this.db
      .delete(integrationDrives)
      .where(and(eq(integrationDrives.connectionId, connectionId), eq(integrationDrives.driveId, driveId)));
  }

  /** Stops following a file (it was deleted at the source). */
  async removeItem(id: string): Promise<void> {
    await this.db.delete(integrationItems).where(eq(integrationItems.id, id));
  }

  /**
   * Records that this version (`eTag`) of a followed file was not read, and why (`UNSUPPORTED`, `TOO_LARGE`):
   * the same version is not looked at again, and the document read before stays. Answers false when the
   * row already said so (nothing changed: the owner was already told).
   */
  async markSkipped(id: string, eTag: string | null, reason: string): Promise<boolean> {
    const rows = await this.db
      .update(integrationItems)
      .set({ eTag, skipped: reason, updatedAt: sql`now()` })
      .where(
        and(
          eq(integrationItems.id, id),
          sql`(${integrationItems.eTag} IS DISTINCT FROM ${eTag} OR ${integrationItems.skipped} IS DISTINCT FROM ${reason})`,
        ),
      )
      .returning({ id: integrationItems.id });
    return rows.length > 0;
  }
}

/**
 * Which service a followed file's path belongs to: SharePoint paths begin with `Sites/` (a site's document library),
 * every other one is the user's OneDrive (docs/decisions.md, "Importing from SharePoint and OneDrive").
 */
export function serviceOfPath(path: string): 'sharepoint' | 'onedrive' {
  return path.startsWith('Sites/') ? 'sharepoint' : 'onedrive';
}
