import { and, desc, eq, exists, gt, isNotNull, isNull, lt, notExists, or, sql } from 'drizzle-orm';
import type { Language } from '@sparks/core';
import { FREE_PLAN_SLUG } from '@sparks/domain/billing';
import { isSqlState } from './busy';
import type { Executor, Transaction } from './client';
import { oneTimeTokens, plans, refreshTokens, sparks, tenants, users, verificationCodes } from './schema/index';

/** The text form of a PostgreSQL uuid, as the database writes it. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type UserRow = typeof users.$inferSelect;
export type TenantRow = typeof tenants.$inferSelect;
export type { Language };

export interface NewAccount {
  username: string;
  email: string;
  passwordHash: string | null;
  language: Language;
  verified: boolean;
  googleSub?: string;
  firstname?: string;
  lastname?: string;
  /** The plan, its name and limits come from the catalogue's free plan (`plans`, slug `free`). */
  tenant: { customerId: string; trialDays: number };
}

/** What `updateUser` changes: the profile's fields and the sign-in state the services set. */
type UserPatch = Partial<
  Pick<
    UserRow,
    'firstname' | 'lastname' | 'language' | 'timeZone' | 'weeklyDigest' | 'passwordHash' | 'verifiedAt' | 'googleSub'
  >
>;

/** A user the weekly digest may be due to (`digestCandidates`): whether it is, their zone's clock decides. */
export interface DigestCandidate {
  id: string;
  email: string;
  language: Language;
  timeZone: string | null;
  /** The local Monday of the last digest handled (`YYYY-MM-DD`), or null. */
  digestSentOn: string | null;
}

/** PostgreSQL's SQLSTATE for a time zone its tzdata does not know (invalid_parameter_value). */
const UNKNOWN_TIME_ZONE = '22023';

/** Users, their tenants and their sign-in secrets. No rules here: the services own them. */
export class AccountsRepository {
  /** Prepared once (named): the auth guard looks the user up on every authenticated request. */
  private readonly userById;

  constructor(private readonly db: Executor) {
    this.userById = db
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .prepare('user_by_id');
  }

  /** The same repository acting inside `tx` (its statements commit or roll back with it). */
  withTx(tx: Transaction): AccountsRepository {
    return new AccountsRepository(tx);
  }

  /** Runs `work` in one transaction: the writes it makes through the repository it is given happen together or not at all. */
  transaction<T>(work: (accounts: AccountsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(this.withTx(tx)));
  }

  /**
   * Creates the user and its first tenant together, on the catalogue's free plan (its name and limits read from
   * `plans` in the same transaction); returns undefined when the username is taken.
   */
  async createAccount(a: NewAccount): Promise<{ user: UserRow; tenant: TenantRow } | undefined> {
    return this.db.transaction(async (tx) => {
      const [free] = await tx.select().from(plans).where(eq(plans.slug, FREE_PLAN_SLUG));
      if (!free)
        throw new Error(`The plan catalogue has no free plan (slug "${FREE_PLAN_SLUG}"): are the migrations applied?`);
      const [user] = await tx
        .insert(users)
        .values({
          username: a.username,
          email: a.email,
          passwordHash: a.passwordHash,
          language: a.language,
          verifiedAt: a.verified ? new Date() : null,
          googleSub: a.googleSub ?? null,
          firstname: a.firstname ?? '',
          lastname: a.lastname ?? '',
        })
        .onConflictDoNothing({ target: users.username })
        .returning();
      if (!user) return undefined;
      const [tenant] = await tx
        .insert(tenants)
        .values({
          userId: user.id,
          customerId: a.tenant.customerId,
          productName: free.productName,
          limitDeployments: free.limitDeployments,
          limitInteractions: free.limitInteractions,
          trialEndsAt: sql`now() + make_interval(days => ${a.tenant.trialDays})`,
        })
        .returning();
      return { user, tenant: tenant };
    });
  }

  /**
   * Signs up again over an account whose address was never proved: the pending password, language and
   * names are replaced and the account reads as new (its dates and trial start now). Undefined when
   * the account is verified by then.
   */
  async restartPendingAccount(
    id: string,
    a: { passwordHash: string; language: Language; trialDays: number },
  ): Promise<{ user: UserRow; tenants: TenantRow[] } | undefined> {
    return this.db.transaction(async (tx) => {
      const [user] = await tx
        .update(users)
        .set({
          passwordHash: a.passwordHash,
          language: a.language,
          firstname: '',
          lastname: '',
          createdAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(and(eq(users.id, id), isNull(users.verifiedAt)))
        .returning();
      if (!user) return undefined;
      const rows = await tx
        .update(tenants)
        .set({
          createdAt: sql`now()`,
          trialStartedAt: sql`now()`,
          trialEndsAt: sql`now() + make_interval(days => ${a.trialDays})`,
        })
        .where(eq(tenants.userId, id))
        .returning();
      return { user, tenants: rows };
    });
  }

  async findUserByUsername(username: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.username, username));
    return row;
  }

  async findUserById(id: string): Promise<UserRow | undefined> {
    // The id may come from outside (a token's subject): text that is no uuid names no user, rather
    // than failing the query.
    if (!UUID.test(id)) return undefined;
    const [row] = await this.userById.execute({ id });
    return row;
  }

  async findUserByGoogleSub(sub: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.googleSub, sub));
    return row;
  }

  async tenantsOf(userId: string): Promise<TenantRow[]> {
    return this.db.select().from(tenants).where(eq(tenants.userId, userId)).orderBy(tenants.createdAt);
  }

  async updateUser(id: string, patch: UserPatch): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  /**
   * Whether PostgreSQL's tzdata knows the zone (the platform's ICU, which the contract checks names with, and it may
   * differ): the analytics and the weekly digest read days in it.
   */
  async knowsTimeZone(name: string): Promise<boolean> {
    try {
      await this.db.execute(sql`SELECT now() AT TIME ZONE ${name}`);
      return true;
    } catch (error) {
      if (isSqlState(error, UNKNOWN_TIME_ZONE)) return false;
      throw error;
    }
  }

  async bumpTokenVersion(id: string): Promise<void> {
    await this.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, id));
  }

  /** Sets the status of the user's first tenant (`inactive`: a disabled account); false when they have none. */
  async setFirstTenantStatus(userId: string, status: TenantRow['status']): Promise<boolean> {
    const [first] = await this.tenantsOf(userId);
    if (!first) return false;
    await this.db.update(tenants).set({ status }).where(eq(tenants.id, first.id));
    return true;
  }

  // — verification codes —

  async latestCode(userId: string) {
    const [row] = await this.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.userId, userId))
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    return row;
  }

  /** Issues a new code and retires every earlier one. */
  async replaceCode(userId: string, codeHash: string, expiresAt: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(verificationCodes)
        .set({ consumedAt: new Date() })
        .where(and(eq(verificationCodes.userId, userId), isNull(verificationCodes.consumedAt)));
      await tx.insert(verificationCodes).values({ userId, codeHash, expiresAt });
    });
  }

  /** Counts a wrong try; the code dies at `maxAttempts`. */
  async failCodeAttempt(id: string, maxAttempts: number): Promise<void> {
    await this.db
      .update(verificationCodes)
      .set({
        attempts: sql`${verificationCodes.attempts} + 1`,
        consumedAt: sql`CASE WHEN ${verificationCodes.attempts} + 1 >= ${maxAttempts} THEN now() ELSE ${verificationCodes.consumedAt} END`,
      })
      .where(eq(verificationCodes.id, id));
  }

  /** Consumes the code once: true only for the request that consumed it. */
  async consumeCode(id: string): Promise<boolean> {
    const rows = await this.db
      .update(verificationCodes)
      .set({ consumedAt: new Date() })
      .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt)))
      .returning({ id: verificationCodes.id });
    return rows.length === 1;
  }

  // — refresh tokens —

  async insertRefreshToken(t: { userId: string; familyId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(refreshTokens).values(t);
  }

  async findRefreshToken(tokenHash: string) {
    const [row] = await this.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
    return row;
  }

  /**
   * Marks the token rotated and stores its successor, in one transaction; true only for the one
   * request that rotated it. `handOver` runs before the commit while the token's row is locked, so a
   * concurrent request for the same token (its update waits on that lock) finds what it left.
   */
  async rotateRefreshToken(
    id: string,
    successor: { userId: string; familyId: string; tokenHash: string; expiresAt: Date },
    handOver: () => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(refreshTokens)
        .set({ rotatedAt: new Date() })
        .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)))
        .returning({ id: refreshTokens.id });
      if (rows.length !== 1) return false;
      await tx.insert(refreshTokens).values(successor);
      await handOver();
      return true;
    });
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  async revokeAllRefreshTokens(userId: string): Promise<void> {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  }

  // — one-time tokens (password reset, OAuth hand-off) —

  async insertOneTimeToken(t: {
    userId: string;
    purpose: 'password_reset' | 'oauth_exchange';
    tokenHash: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.db.insert(oneTimeTokens).values(t);
  }

  /** Uses a live token once and returns its user id; undefined when unknown, used or expired. */
  async useOneTimeToken(tokenHash: string, purpose: 'password_reset' | 'oauth_exchange'): Promise<string | undefined> {
    const [row] = await this.db
      .update(oneTimeTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(oneTimeTokens.tokenHash, tokenHash),
          eq(oneTimeTokens.purpose, purpose),
          isNull(oneTimeTokens.usedAt),
          gt(oneTimeTokens.expiresAt, new Date()),
        ),
      )
      .returning({ userId: oneTimeTokens.userId });
    return row?.userId;
  }

  /** Ends every live token of `purpose` of the user (a reset ends every other reset link). */
  async endOneTimeTokens(userId: string, purpose: 'password_reset' | 'oauth_exchange'): Promise<void> {
    await this.db
      .update(oneTimeTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
  }

  /** Retires every live verification code of the user (the address was proved another way). */
  async endCodes(userId: string): Promise<void> {
    await this.db
      .update(verificationCodes)
      .set({ consumedAt: new Date() })
      .where(and(eq(verificationCodes.userId, userId), isNull(verificationCodes.consumedAt)));
  }

  async peekOneTimeToken(tokenHash: string, purpose: 'password_reset' | 'oauth_exchange'): Promise<string | undefined> {
    const [row] = await this.db
      .select({ userId: oneTimeTokens.userId })
      .from(oneTimeTokens)
      .where(
        and(
          eq(oneTimeTokens.tokenHash, tokenHash),
          eq(oneTimeTokens.purpose, purpose),
          isNull(oneTimeTokens.usedAt),
          gt(oneTimeTokens.expiresAt, new Date()),
        ),
      );
    return row?.userId;
  }

  // — the weekly digest —

  /**
   * The users the weekly digest of the week beginning `monday` (a local date) may be due to, by id after `after`: the
   * digest on, the address verified, at least one Spark, the account not disabled, and no digest handled for that week
   * yet (`digest_sent_on` null or before `monday`).
   */
  async digestCandidates(v: { monday: string; after?: string; limit: number }): Promise<DigestCandidate[]> {
    return this.db
      .select({
        id: users.id,
        email: users.email,
        language: users.language,
        timeZone: users.timeZone,
        digestSentOn: users.digestSentOn,
      })
      .from(users)
      .where(
        and(
          eq(users.weeklyDigest, true),
          isNotNull(users.verifiedAt),
          or(isNull(users.digestSentOn), lt(users.digestSentOn, v.monday)),
          v.after ? gt(users.id, v.after) : undefined,
          exists(
            this.db
              .select({ one: sql`1` })
              .from(sparks)
              .where(eq(sparks.userId, users.id)),
          ),
          notExists(
            this.db
              .select({ one: sql`1` })
              .from(tenants)
              .where(and(eq(tenants.userId, users.id), eq(tenants.status, 'inactive'))),
          ),
        ),
      )
      .orderBy(users.id)
      .limit(v.limit);
  }

  /**
   * Claims the user's digest of the week beginning `monday` (sets `digest_sent_on`, only if the digest is still on and
   * that week was not handled yet) and runs `then` in the same transaction: what the digest writes (its e-mail) is
   * committed with the claim, or neither is and a later sweep tries again. Two workers, or a job delivered twice,
   * claim a week once: the second waits for the first's row lock and then finds the week taken.
   */
  async claimDigestWeek<T>(
    userId: string,
    monday: string,
    then: (tx: Transaction) => Promise<T>,
  ): Promise<{ claimed: true; value: T } | { claimed: false }> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(users)
        .set({ digestSentOn: monday })
        .where(
          and(
            eq(users.id, userId),
            eq(users.weeklyDigest, true),
            or(isNull(users.digestSentOn), lt(users.digestSentOn, monday)),
          ),
        )
        .returning({ id: users.id });
      if (rows.length === 0) return { claimed: false as const };
      return { claimed: true as const, value: await then(tx) };
    });
  }
}
