import { desc, eq } from 'drizzle-orm';
import { AccountsRepository } from './accounts.repository';
import type { Database } from './client';
import { adminAudit, admins, tenants, users } from './schema/index';

export type AdminAction = 'disable' | 'enable' | 'grant' | 'revoke';
export type AuditRow = typeof adminAudit.$inferSelect;

export interface AccountSummary {
  id: string;
  username: string;
  firstname: string;
  lastname: string;
  createdAt: Date;
  /** The first tenant's status: `inactive` marks a disabled account. */
  status: 'active' | 'inactive';
  /** Granted with the CLI (ADMIN_EMAILS admins are the config's, not the database's). */
  grantedAdmin: boolean;
}

/** Admins granted in the database, account status changes, and the log of who did what. */
export class AdminRepository {
  constructor(
    private readonly db: Database,
    /** Sets the first tenant's status, inside the transaction that writes the audit row (`withTx`). */
    private readonly accounts = new AccountsRepository(db),
  ) {}

  async isGrantedAdmin(userId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: admins.userId }).from(admins).where(eq(admins.userId, userId));
    return !!row;
  }

  /** The first tenant's status of a user (undefined: no such user or no tenant). */
  async accountStatus(userId: string): Promise<'active' | 'inactive' | undefined> {
    const [row] = await this.db
      .select({ status: tenants.status })
      .from(tenants)
      .where(eq(tenants.userId, userId))
      .orderBy(tenants.createdAt)
      .limit(1);
    return row?.status;
  }

  async findAccount(username: string): Promise<AccountSummary | undefined> {
    const [user] = await this.db.select().from(users).where(eq(users.username, username.trim().toLowerCase()));
    if (!user) return undefined;
    return {
      id: user.id,
      username: user.username,
      firstname: user.firstname,
      lastname: user.lastname,
      createdAt: user.createdAt,
      status: (await this.accountStatus(user.id)) ?? 'inactive',
      grantedAdmin: await this.isGrantedAdmin(user.id),
    };
  }

  /**
   * Sets the first tenant's status and logs who did it, together. False when the user has no
   * tenant. Setting the status it already has is still logged (the admin asked).
   */
  async setAccountStatus(userId: string, status: 'active' | 'inactive', actor: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [user] = await tx.select({ username: users.username }).from(users).where(eq(users.id, userId));
      if (!user || !(await this.accounts.withTx(tx).setFirstTenantStatus(userId, status))) return false;
      await tx.insert(adminAudit).values({
        actor,
        action: status === 'inactive' ? 'disable' : 'enable',
        targetUserId: userId,
        targetUsername: user.username,
      });
      return true;
    });
  }

  /** Grants or revokes the database admin flag, logged. False when nothing changed. */
  async setGrantedAdmin(userId: string, admin: boolean, actor: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [user] = await tx.select({ username: users.username }).from(users).where(eq(users.id, userId));
      if (!user) return false;
      const changed = admin
        ? await tx.insert(admins).values({ userId, grantedBy: actor }).onConflictDoNothing().returning()
        : await tx.delete(admins).where(eq(admins.userId, userId)).returning();
      if (changed.length === 0) return false;
      await tx
        .insert(adminAudit)
        .values({ actor, action: admin ? 'grant' : 'revoke', targetUserId: userId, targetUsername: user.username });
      return true;
    });
  }

  async grantedAdmins(): Promise<Array<{ username: string; grantedBy: string; createdAt: Date }>> {
    return this.db
      .select({ username: users.username, grantedBy: admins.grantedBy, createdAt: admins.createdAt })
      .from(admins)
      .innerJoin(users, eq(users.id, admins.userId))
      .orderBy(users.username);
  }

  /** The latest actions, newest first; of one user when given. */
  async audit(opts: { userId?: string; limit?: number } = {}): Promise<AuditRow[]> {
    return this.db
      .select()
      .from(adminAudit)
      .where(opts.userId ? eq(adminAudit.targetUserId, opts.userId) : undefined)
      .orderBy(desc(adminAudit.createdAt), desc(adminAudit.id))
      .limit(opts.limit ?? 50);
  }
}
