import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Database } from './client';
import { accountExports } from './schema/index';

export type AccountExportRow = typeof accountExports.$inferSelect;

/**
 * The owner's rights over their data (issue 30): the exports the worker builds. Owns `account_exports`.
 */
export class PrivacyRepository {
  constructor(private readonly db: Database) {}

  // — exports —

  /** The account's export being built, or a new one (a second request while one is built queues nothing more). */
  async startExport(userId: string): Promise<{ row: AccountExportRow; created: boolean }> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${'export:' + userId}, 0))`);
      const [pending] = await tx
        .select()
        .from(accountExports)
        .where(and(eq(accountExports.userId, userId), eq(accountExports.status, 'pending')));
      if (pending) return { row: pending, created: false };
      const [row] = await tx.insert(accountExports).values({ userId }).returning();
      return { row, created: true };
    });
  }

  async findExport(id: string): Promise<AccountExportRow | undefined> {
    const [row] = await this.db.select().from(accountExports).where(eq(accountExports.id, id));
    return row;
  }

  async markExportReady(
    id: string,
    v: { storageKey: string; size: number; tokenHash: string; expiresAt: Date },
  ): Promise<boolean> {
    const rows = await this.db
      .update(accountExports)
      .set({ ...v, status: 'ready', readyAt: sql`now()`, error: null })
      .where(eq(accountExports.id, id))
      .returning({ id: accountExports.id });
    return rows.length === 1;
  }

  async markExportFailed(id: string, error: string): Promise<void> {
    await this.db.update(accountExports).set({ status: 'error', error }).where(eq(accountExports.id, id));
  }

  /** A ready export by its id and the hash of its link's secret, while the link lives. */
  async downloadable(id: string, tokenHash: string, now: Date): Promise<AccountExportRow | undefined> {
    const [row] = await this.db
      .select()
      .from(accountExports)
      .where(
        and(
          eq(accountExports.id, id),
          eq(accountExports.tokenHash, tokenHash),
          eq(accountExports.status, 'ready'),
          gt(accountExports.expiresAt, now),
        ),
      );
    return row;
  }

  /** Exports whose link has expired, or that failed or were left building a day ago: for the retention sweep. */
  async staleExports(now: Date, limit = 100): Promise<AccountExportRow[]> {
    return this.db
      .select()
      .from(accountExports)
      .where(
        sql`(${accountExports.status} = 'ready' AND ${accountExports.expiresAt} <= ${now})
            OR (${accountExports.status} <> 'ready' AND ${accountExports.createdAt} <= ${new Date(now.getTime() - 86_400_000)})`,
      )
      .orderBy(asc(accountExports.createdAt))
      .limit(limit);
  }

  async deleteExport(id: string): Promise<void> {
    await this.db.delete(accountExports).where(eq(accountExports.id, id));
  }
}
