import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from './client';
import { accountExports, accountPurges } from './schema/index';

export type AccountExportRow = typeof accountExports.$inferSelect;
export type AccountPurgeRow = typeof accountPurges.$inferSelect;

/** What deleting an account removed from PostgreSQL, and what is left for `account.purge` to remove elsewhere. */
export interface DeletedAccount {
  purgeId: string;
  /** How many ids and names went into the purge (for the log). */
  identifiers: number;
  storageKeys: number;
}

/** Every id or name of the account that its queued jobs and Redis keys may carry: what `account.purge` looks for. */
function identifiersOf(userId: string) {
  return sql`
    WITH t AS (SELECT id FROM tenants WHERE user_id = ${userId}),
         s AS (SELECT id FROM sparks WHERE user_id = ${userId}),
         c AS (SELECT id FROM conversations WHERE user_id = ${userId})
    SELECT DISTINCT x FROM (
      SELECT id::text FROM t
      UNION ALL SELECT customer_id FROM tenants WHERE user_id = ${userId}
      UNION ALL SELECT subscription_id FROM tenants WHERE user_id = ${userId}
      UNION ALL SELECT stripe_customer_id FROM tenant_billing WHERE tenant_id IN (SELECT id FROM t)
      UNION ALL SELECT id FROM checkout_sessions WHERE tenant_id IN (SELECT id FROM t)
      UNION ALL SELECT id::text FROM tenant_credits WHERE tenant_id IN (SELECT id FROM t)
      UNION ALL SELECT id::text FROM usage_events WHERE tenant_id IN (SELECT id FROM t)
      UNION ALL SELECT message_id::text FROM usage_events WHERE tenant_id IN (SELECT id FROM t)
      UNION ALL SELECT id::text FROM usage_reservations WHERE tenant_id IN (SELECT id FROM t)
      UNION ALL SELECT message_id::text FROM usage_reservations WHERE tenant_id IN (SELECT id FROM t)
      UNION ALL SELECT id::text FROM s
      UNION ALL SELECT id::text FROM spark_tests WHERE user_id = ${userId}
      UNION ALL SELECT id::text FROM c
      UNION ALL SELECT id::text FROM messages WHERE conversation_id IN (SELECT id FROM c)
      UNION ALL SELECT id::text FROM documents WHERE user_id = ${userId}
      UNION ALL SELECT id::text FROM deployments WHERE user_id = ${userId}
      UNION ALL SELECT id::text FROM visitors WHERE spark_id IN (SELECT id FROM s)
      UNION ALL SELECT id::text FROM integration_connections WHERE user_id = ${userId}
      UNION ALL SELECT id::text FROM refresh_tokens WHERE user_id = ${userId}
      UNION ALL SELECT id::text FROM account_exports WHERE user_id = ${userId}
      UNION ALL SELECT e.id::text FROM outbound_emails e JOIN users u ON e."to" IN (u.email, u.username)
                WHERE u.id = ${userId}
    ) ids(x) WHERE x IS NOT NULL`;
}

/**
 * The owner's rights over their data (issue 30): the exports the worker builds, and deleting an account. Owns
 * `account_exports` and `account_purges`. `deleteAccount` is the one writer that removes rows of every table in
 * one transaction (docs/architecture.md, "One writer per table", its exception).
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

  // — deleting an account —

  /**
   * Deletes the account and everything it owns from PostgreSQL, in one transaction: the user row (every table that
   * hangs from it goes with it), and what does not hang from it — the e-mails sent to its address, the payment
   * provider's events about its customer, the admin audit rows about it (and its e-mail where it acted as an admin,
   * written `deleted account`). The rows that new work would hang from (the user, tenants, Sparks, conversations)
   * are locked first, so nothing is added meanwhile that the purge would not know. Answers undefined when there
   * is no such user.
   */
  async deleteAccount(userId: string): Promise<DeletedAccount | undefined> {
    return this.db.transaction(async (tx) => {
      const [user] = (
        await tx.execute<{ email: string; username: string }>(
          sql`SELECT email, username FROM users WHERE id = ${userId} FOR UPDATE`,
        )
      ).rows;
      if (!user) return undefined;
      await tx.execute(sql`SELECT 1 FROM tenants WHERE user_id = ${userId} FOR UPDATE`);
      await tx.execute(sql`SELECT 1 FROM sparks WHERE user_id = ${userId} FOR UPDATE`);
      await tx.execute(sql`SELECT 1 FROM conversations WHERE user_id = ${userId} FOR UPDATE`);
      const found = await tx.execute<{ x: string }>(identifiersOf(userId));
      const identifiers = [userId, user.email, user.username, ...found.rows.map((r) => r.x)];
      const keys = (
        await tx.execute<{ key: string }>(sql`
          SELECT storage_key AS key FROM documents WHERE user_id = ${userId} AND origin = 'file'
          UNION SELECT storage_key FROM account_exports WHERE user_id = ${userId} AND storage_key IS NOT NULL`)
      ).rows.map((r) => r.key);
      const billingIds = (
        await tx.execute<{ x: string }>(sql`
          SELECT id::text AS x FROM tenants WHERE user_id = ${userId}
          UNION SELECT customer_id FROM tenants WHERE user_id = ${userId}
          UNION SELECT subscription_id FROM tenants WHERE user_id = ${userId} AND subscription_id IS NOT NULL
          UNION SELECT stripe_customer_id FROM tenant_billing b JOIN tenants t ON t.id = b.tenant_id
                WHERE t.user_id = ${userId} AND stripe_customer_id IS NOT NULL
          UNION SELECT s.id FROM checkout_sessions s JOIN tenants t ON t.id = s.tenant_id WHERE t.user_id = ${userId}`)
      ).rows.map((r) => r.x);
      await tx.execute(sql`DELETE FROM outbound_emails WHERE "to" IN (${user.email}, ${user.username})`);
      if (billingIds.length > 0) {
        await tx.execute(sql`
          DELETE FROM billing_events e WHERE EXISTS (
            SELECT 1 FROM jsonb_array_elements_text(${JSON.stringify(billingIds)}::jsonb) AS k(id)
            WHERE strpos(e.payload::text, k.id) > 0)`);
      }
      await tx.execute(
        sql`DELETE FROM admin_audit WHERE target_user_id = ${userId} OR target_username IN (${user.email}, ${user.username})`,
      );
      await tx.execute(
        sql`UPDATE admin_audit SET actor = 'deleted account' WHERE actor IN (${user.email}, ${user.username})`,
      );
      await tx.execute(sql`DELETE FROM users WHERE id = ${userId}`);
      const [purge] = await tx
        .insert(accountPurges)
        .values({ identifiers: [...new Set(identifiers)], storageKeys: keys })
        .returning({ id: accountPurges.id });
      return { purgeId: purge.id, identifiers: identifiers.length, storageKeys: keys.length };
    });
  }

  async findPurge(id: string): Promise<AccountPurgeRow | undefined> {
    const [row] = await this.db.select().from(accountPurges).where(eq(accountPurges.id, id));
    return row;
  }

  async deletePurge(id: string): Promise<void> {
    await this.db.delete(accountPurges).where(eq(accountPurges.id, id));
  }

  /** Purges not done a while after the account's deletion (their job was never queued, or gave up): queued again. */
  async stalePurges(before: Date): Promise<string[]> {
    const rows = await this.db
      .select({ id: accountPurges.id })
      .from(accountPurges)
      .where(lt(accountPurges.createdAt, before))
      .orderBy(asc(accountPurges.createdAt))
      .limit(100);
    return rows.map((r) => r.id);
  }
}
