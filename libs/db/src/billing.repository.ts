import { and, asc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Database } from './client';
import { EmailsRepository } from './emails.repository';
import { BILLING_OBJECTIVES_KEY, BILLING_STEPS } from '@sparks/core';
import { FREE_PLAN_SLUG } from './accounts.repository';
import { setObjectiveStep } from './objectives.repository';
import { planOfUser, type PlanOfUser } from './plan-limits';
import {
  billingEvents,
  checkoutSessions,
  creditPacks,
  plans,
  tenantBilling,
  tenantCredits,
  tenants,
  usageEvents,
  usageReservations,
  users,
} from './schema/index';

export type PlanRow = typeof plans.$inferSelect;
export type CreditPackRow = typeof creditPacks.$inferSelect;
export type TenantBillingRow = typeof tenantBilling.$inferSelect;
export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
type TenantRowB = typeof tenants.$inferSelect;

export type UsageSource = 'plan' | 'credits' | 'overage';
export type ReserveOutcome =
  { ok: true; source: UsageSource } | { ok: false; code: 'TRIAL_ENDED' | 'OUT_OF_INTERACTIONS' | 'ACCOUNT_INACTIVE' };

/** What a recorded interaction crossed: the 80 % / 100 % alerts to send, once per period each. */
export interface RecordOutcome {
  recorded: boolean;
  tenantId?: string;
  /** Where the recorded interaction was counted (the plan, a credit pack, overage). */
  source?: UsageSource;
  alerts: Array<80 | 100>;
  /** The alert e-mails written with the event (`outbound_emails` ids), to send. */
  emailIds?: string[];
}

/** What an 80 % / 100 % alert e-mail says: the owner, their language, and the period's figures. */
export interface UsageAlert {
  level: 80 | 100;
  language: 'es' | 'en';
  used: number;
  limit: number;
  plan: string;
}

/** Writes an alert e-mail's subject and text (the caller's templates). */
export type ComposeAlert = (alert: UsageAlert) => { subject: string; text: string };

const FREE = FREE_PLAN_SLUG;

/** The first instant of the calendar month of `d` (UTC), and the one after. */
export function calendarMonth(d: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const end = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  return { start, end };
}

export function addMonth(d: Date): Date {
  const next = new Date(d);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/**
 * Plans, credit packs, the tenant's plan and period, and the interaction meter. Every change to a
 * tenant's balance locks its `tenants` row first, so reservations of one tenant are serialised and
 * the balance can never be spent twice.
 */
export class BillingRepository {
  constructor(
    private readonly db: Database,
    /** Writes the usage alert e-mails, inside the recording's transaction (`withTx`). */
    private readonly emails = new EmailsRepository(db),
  ) {}

  // — catalogue —

  plans(): Promise<PlanRow[]> {
    return this.db.select().from(plans).orderBy(asc(plans.sortOrder));
  }

  async planBySlug(slug: string): Promise<PlanRow | undefined> {
    const [row] = await this.db.select().from(plans).where(eq(plans.slug, slug));
    return row;
  }

  async planByPriceId(priceId: string): Promise<PlanRow | undefined> {
    const [row] = await this.db.select().from(plans).where(eq(plans.priceId, priceId));
    return row;
  }

  creditPacks(): Promise<CreditPackRow[]> {
    return this.db.select().from(creditPacks).orderBy(asc(creditPacks.interactions));
  }

  async creditPack(productId: string): Promise<CreditPackRow | undefined> {
    const [row] = await this.db.select().from(creditPacks).where(eq(creditPacks.productId, productId));
    return row;
  }

  async creditPackByPriceId(priceId: string): Promise<CreditPackRow | undefined> {
    const [row] = await this.db.select().from(creditPacks).where(eq(creditPacks.priceId, priceId));
    return row;
  }

  /** The plan of the user's tenant (see `planOfUser`): where every per-plan limit is read. */
  planOfUser(userId: string): Promise<PlanOfUser | undefined> {
    return planOfUser(this.db, userId);
  }

  // — tenant state —

  async firstTenantOf(userId: string): Promise<TenantRowB | undefined> {
    const [row] = await this.db
      .select()
      .from(tenants)
      .where(eq(tenants.userId, userId))
      .orderBy(asc(tenants.createdAt))
      .limit(1);
    return row;
  }

  async tenantByCustomerId(customerId: string): Promise<TenantRowB | undefined> {
    const [row] = await this.db.select().from(tenants).where(eq(tenants.customerId, customerId));
    return row;
  }

  /**
   * The tenant's billing row inside `tx` (the tenant row already locked): created on first use on
   * the free plan, and moved to the current period when the last one ended (usage starts again).
   */
  private async billingRow(tx: Tx, tenant: TenantRowB, now: Date): Promise<TenantBillingRow> {
    let [row] = await tx.select().from(tenantBilling).where(eq(tenantBilling.tenantId, tenant.id));
    if (!row) {
      const month = calendarMonth(now);
      [row] = await tx
        .insert(tenantBilling)
        .values({ tenantId: tenant.id, periodStart: month.start, periodEnd: month.end })
        .onConflictDoNothing()
        .returning();
      if (!row) [row] = await tx.select().from(tenantBilling).where(eq(tenantBilling.tenantId, tenant.id));
    }
    if (row.periodEnd.getTime() <= now.getTime()) {
      let start = row.periodStart;
      let end = row.periodEnd;
      if (row.planSlug === FREE) {
        ({ start, end } = calendarMonth(now));
      } else {
        while (end.getTime() <= now.getTime()) {
          start = end;
          end = addMonth(end);
        }
      }
      [row] = await tx
        .update(tenantBilling)
        .set({ periodStart: start, periodEnd: end, overageUsed: 0, updatedAt: now })
        .where(eq(tenantBilling.tenantId, tenant.id))
        .returning();
      await tx.update(tenants).set({ usageInteractions: 0 }).where(eq(tenants.id, tenant.id));
      tenant.usageInteractions = 0;
    }
    return row;
  }

  private async lockTenant(tx: Tx, tenantId: string): Promise<TenantRowB | undefined> {
    const [row] = await tx.select().from(tenants).where(eq(tenants.id, tenantId)).for('update');
    return row;
  }

  /** The tenant with its billing row and plan, the period moved on when due. */
  async state(tenantId: string, now: Date) {
    return this.db.transaction(async (tx) => {
      const tenant = await this.lockTenant(tx, tenantId);
      if (!tenant) return undefined;
      const billing = await this.billingRow(tx, tenant, now);
      const [plan] = await tx.select().from(plans).where(eq(plans.slug, billing.planSlug));
      return { tenant, billing, plan: plan };
    });
  }

  /** Interactions of purchased packs not spent yet (held ones excluded). */
  async availableCredits(tenantId: string): Promise<number> {
    const res = await this.db.execute<{ total: string | null }>(sql`
      SELECT COALESCE(SUM(c.interactions - c.used), 0)
           - (SELECT count(*) FROM usage_reservations r WHERE r.tenant_id = ${tenantId} AND r.source = 'credits') AS total
      FROM tenant_credits c WHERE c.tenant_id = ${tenantId}`);
    return Math.max(0, Number(res.rows[0]?.total ?? 0));
  }

  // — the meter —

  /**
   * Holds one interaction for `messageId`: from the plan, else the oldest pack with room, else
   * overage (when on and under its cap). Holding the same message twice holds it once. A disabled
   * account (tenant `inactive`) holds nothing: `ACCOUNT_INACTIVE`, read under the tenant's row lock.
   */
  async reserve(tenantId: string, reservationId: string, now: Date): Promise<ReserveOutcome> {
    return this.db.transaction(async (tx) => {
      const tenant = await this.lockTenant(tx, tenantId);
      if (!tenant) return { ok: false, code: 'OUT_OF_INTERACTIONS' };
      if (tenant.status !== 'active') return { ok: false, code: 'ACCOUNT_INACTIVE' };
      const [already] = await tx.select().from(usageReservations).where(eq(usageReservations.id, reservationId));
      if (already) return { ok: true, source: already.source };
      const billing = await this.billingRow(tx, tenant, now);
      if (!tenant.subscriptionId && tenant.trialEndsAt.getTime() <= now.getTime()) {
        return { ok: false, code: 'TRIAL_ENDED' };
      }
      const held = await tx
        .select({
          source: usageReservations.source,
          creditId: usageReservations.creditId,
          n: sql<number>`count(*)::int`,
        })
        .from(usageReservations)
        .where(eq(usageReservations.tenantId, tenantId))
        .groupBy(usageReservations.source, usageReservations.creditId);
      const heldOf = (source: UsageSource, creditId: string | null = null) =>
        held
          .filter((h) => h.source === source && (source !== 'credits' || h.creditId === creditId))
          .reduce((n, h) => n + Number(h.n), 0);

      const hold = async (source: UsageSource, creditId: string | null = null): Promise<ReserveOutcome> => {
        await tx.insert(usageReservations).values({ id: reservationId, tenantId, source, creditId });
        return { ok: true, source };
      };

      if (tenant.usageInteractions + heldOf('plan') < tenant.limitInteractions) return hold('plan');

      const packs = await tx
        .select()
        .from(tenantCredits)
        .where(and(eq(tenantCredits.tenantId, tenantId), sql`${tenantCredits.used} < ${tenantCredits.interactions}`))
        .orderBy(asc(tenantCredits.createdAt), asc(tenantCredits.id));
      for (const pack of packs) {
        if (pack.used + heldOf('credits', pack.id) < pack.interactions) return hold('credits', pack.id);
      }

      if (billing.overageEnabled && tenant.subscriptionId) {
        const [plan] = await tx.select().from(plans).where(eq(plans.slug, billing.planSlug));
        const rate = plan?.overageUnitAmount ?? 0;
        if (rate > 0 && (billing.overageUsed + heldOf('overage') + 1) * rate <= billing.overageCapCents) {
          return hold('overage');
        }
      }
      return { ok: false, code: 'OUT_OF_INTERACTIONS' };
    });
  }

  /**
   * The answer to `messageId` was given: the hold is tied to that message and can no longer be
   * released. False when there is no such hold (released, or already tied to another message).
   */
  async markSettled(reservationId: string, messageId: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(usageReservations)
      .set({ messageId, settledAt: now })
      .where(
        and(
          eq(usageReservations.id, reservationId),
          sql`(${usageReservations.messageId} IS NULL OR ${usageReservations.messageId} = ${messageId})`,
        ),
      )
      .returning({ id: usageReservations.id });
    return rows.length === 1;
  }

  /** The answer failed: the interaction goes back to the balance (unless it was settled). */
  async release(reservationId: string): Promise<boolean> {
    const rows = await this.db
      .delete(usageReservations)
      .where(and(eq(usageReservations.id, reservationId), isNull(usageReservations.settledAt)))
      .returning({ id: usageReservations.id });
    return rows.length === 1;
  }

  /** Holds older than `before` that were never settled (a process died mid-answer) go back. */
  async releaseStale(before: Date): Promise<number> {
    const rows = await this.db
      .delete(usageReservations)
      .where(and(isNull(usageReservations.settledAt), sql`${usageReservations.createdAt} < ${before.toISOString()}`))
      .returning({ id: usageReservations.id });
    return rows.length;
  }

  /**
   * `usage.record`: turns a settled hold into the message's one usage event and counts it on the
   * tenant, in one transaction. Recording the same message again changes nothing.
   */
  async record(messageId: string, now: Date): Promise<RecordOutcome> {
    return (await this.recordMany([messageId], now)).get(messageId)!;
  }

  /**
   * `usage.record` for a batch of messages, in one transaction: the settled holds become their
   * messages' usage events (unique by message id) and are counted, grouped, on the counters they came
   * from (the tenants' `usage_interactions`, the packs' `used`, the months' overage). The tenants are
   * locked in id order, so batches running side by side cannot deadlock; a message without a settled
   * hold, or recorded already, changes nothing. Each tenant's 80 % / 100 % alerts are answered on the
   * first message of that tenant recorded here; with `compose`, their e-mails are written in the same
   * transaction (`emailIds`), so an alert marked as sent always has its mail, and a mail that cannot be
   * written leaves the batch to be retried whole.
   *
   * A few statements whatever the batch's size: one locks the tenants and reads their billing rows,
   * one takes the holds, inserts the events and adds them to the three counters (a data-modifying
   * `WITH`), then one per tenant whose period moves on or whose alert is due (rare).
   */
  async recordMany(messageIds: string[], now: Date, compose?: ComposeAlert): Promise<Map<string, RecordOutcome>> {
    const out = new Map<string, RecordOutcome>(messageIds.map((id) => [id, { recorded: false, alerts: [] }]));
    if (messageIds.length === 0) return out;
    const ids = sql`${sql.param(messageIds)}::uuid[]`;
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .select({ tenant: tenants, billing: tenantBilling })
        .from(tenants)
        .leftJoin(tenantBilling, eq(tenantBilling.tenantId, tenants.id))
        .where(
          inArray(
            tenants.id,
            tx
              .selectDistinct({ id: usageReservations.tenantId })
              .from(usageReservations)
              .where(and(sql`${usageReservations.messageId} = ANY(${ids})`, isNotNull(usageReservations.settledAt))),
          ),
        )
        .orderBy(asc(tenants.id))
        .for('update', { of: tenants });
      if (rows.length === 0) return out;
      const locked = rows.map((r) => r.tenant);
      const billingOf = new Map<string, TenantBillingRow>();
      for (const { tenant, billing } of rows) {
        // No billing row yet, or its period is over: made or moved on first (the events take its period).
        billingOf.set(
          tenant.id,
          billing && billing.periodEnd.getTime() > now.getTime() ? billing : await this.billingRow(tx, tenant, now),
        );
      }
      const tenantIds = sql`${sql.param(locked.map((t) => t.id))}::uuid[]`;
      // The holds of the locked tenants become events; only the events inserted here (not recorded
      // before) are counted. Every part runs once, whether or not the final SELECT reads it.
      const taken = await tx.execute<{
        message_id: string;
        tenant_id: string;
        source: UsageSource;
        recorded: boolean;
      }>(sql`
        WITH taken AS (
          DELETE FROM usage_reservations
          WHERE message_id = ANY(${ids}) AND settled_at IS NOT NULL AND tenant_id = ANY(${tenantIds})
          RETURNING message_id, tenant_id, source, credit_id
        ), events AS (
          INSERT INTO usage_events (id, message_id, tenant_id, source, credit_id, period_start)
          SELECT x.event_id, t.message_id, t.tenant_id, t.source, t.credit_id, b.period_start
          FROM taken t JOIN tenant_billing b ON b.tenant_id = t.tenant_id
          JOIN unnest(${ids}, ${sql.param(messageIds.map(() => uuidv7()))}::uuid[]) AS x(message_id, event_id)
            ON x.message_id = t.message_id
          ON CONFLICT (message_id) DO NOTHING
          RETURNING message_id, tenant_id, source, credit_id
        ), plan AS (
          UPDATE tenants SET usage_interactions = tenants.usage_interactions + c.n
          FROM (SELECT tenant_id, count(*)::int AS n FROM events WHERE source = 'plan' GROUP BY tenant_id) c
          WHERE tenants.id = c.tenant_id
        ), packs AS (
          UPDATE tenant_credits SET used = tenant_credits.used + c.n
          FROM (SELECT credit_id, count(*)::int AS n FROM events
                WHERE source = 'credits' AND credit_id IS NOT NULL GROUP BY credit_id) c
          WHERE tenant_credits.id = c.credit_id
        ), overage AS (
          UPDATE tenant_billing SET overage_used = tenant_billing.overage_used + c.n
          FROM (SELECT tenant_id, count(*)::int AS n FROM events WHERE source = 'overage' GROUP BY tenant_id) c
          WHERE tenant_billing.tenant_id = c.tenant_id
        )
        SELECT t.message_id, t.tenant_id, t.source, e.message_id IS NOT NULL AS recorded
        FROM taken t LEFT JOIN events e ON e.message_id = t.message_id`);

      const plan = new Map<string, number>();
      const firstOf = new Map<string, string>();
      for (const row of taken.rows) {
        out.set(row.message_id, { recorded: row.recorded, tenantId: row.tenant_id, source: row.source, alerts: [] });
        if (!row.recorded) continue;
        if (row.source === 'plan') plan.set(row.tenant_id, (plan.get(row.tenant_id) ?? 0) + 1);
        if (!firstOf.has(row.tenant_id)) firstOf.set(row.tenant_id, row.message_id);
      }
      for (const tenant of locked) {
        const first = firstOf.get(tenant.id);
        if (!first) continue;
        const billing = billingOf.get(tenant.id)!;
        const used = tenant.usageInteractions + (plan.get(tenant.id) ?? 0);
        const limit = tenant.limitInteractions;
        const alerts: Array<80 | 100> = [];
        const period = billing.periodStart.getTime();
        if (limit > 0 && used * 100 >= limit * 80 && billing.alerted80For?.getTime() !== period) alerts.push(80);
        if (limit > 0 && used >= limit && billing.alerted100For?.getTime() !== period) alerts.push(100);
        if (alerts.length === 0) continue;
        await tx
          .update(tenantBilling)
          .set({
            ...(alerts.includes(80) ? { alerted80For: billing.periodStart } : {}),
            ...(alerts.includes(100) ? { alerted100For: billing.periodStart } : {}),
          })
          .where(eq(tenantBilling.tenantId, tenant.id));
        const emailIds = compose ? await this.writeAlerts(tx, tenant, alerts, used, compose) : [];
        out.set(first, { recorded: true, tenantId: tenant.id, alerts, ...(compose ? { emailIds } : {}) });
      }
      return out;
    });
  }

  /** The alert e-mails of one tenant, to its owner in their language, written inside the recording's transaction. */
  private async writeAlerts(
    tx: Tx,
    tenant: TenantRowB,
    levels: Array<80 | 100>,
    used: number,
    compose: ComposeAlert,
  ): Promise<string[]> {
    const [owner] = await tx
      .select({ email: users.email, language: users.language })
      .from(users)
      .where(eq(users.id, tenant.userId));
    if (!owner) return [];
    const rows = levels.map((level) => {
      const { subject, text } = compose({
        level,
        language: owner.language,
        used,
        limit: tenant.limitInteractions,
        plan: tenant.productName,
      });
      return { to: owner.email, subject, text, language: owner.language };
    });
    return this.emails.withTx(tx).createMany(rows);
  }

  async usageEventCount(tenantId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(usageEvents)
      .where(eq(usageEvents.tenantId, tenantId));
    return Number(row?.n ?? 0);
  }

  // — checkout and fulfilment —

  /** Records a checkout session; the same provider session recorded twice is kept once. */
  async createCheckout(row: typeof checkoutSessions.$inferInsert): Promise<CheckoutSessionRow> {
    const [created] = await this.db.insert(checkoutSessions).values(row).onConflictDoNothing().returning();
    return created ?? (await this.checkout(row.id))!;
  }

  async checkout(id: string): Promise<CheckoutSessionRow | undefined> {
    const [row] = await this.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
    return row;
  }

  async cancelCheckout(id: string): Promise<void> {
    await this.db
      .update(checkoutSessions)
      .set({ status: 'canceled' })
      .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'open')));
  }

  /**
   * Fulfils a paid checkout session: a plan becomes the tenant's subscription, a pack becomes
   * credits. Runs any number of times for the same session with one effect (the session row is
   * locked and marked fulfilled in the same transaction). Answers false when nothing was done, and
   * `'plan-held'` for a plan session whose plan the tenant already holds (a second, stale checkout
   * opened before the first was paid): it is closed (`canceled`) and nothing changes, usage included.
   */
  async fulfil(
    sessionId: string,
    now: Date,
    subscriptionId?: string,
    period?: { start: Date; end: Date },
  ): Promise<boolean | 'plan-held'> {
    return this.db.transaction(async (tx) => {
      const [session] = await tx
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.id, sessionId))
        .for('update');
      if (!session || session.fulfilledAt || session.status === 'canceled') return false;
      const tenant = await this.lockTenant(tx, session.tenantId);
      if (!tenant) return false;
      await this.billingRow(tx, tenant, now);
      if (session.mode === 'subscription') {
        const [plan] = await tx.select().from(plans).where(eq(plans.priceId, session.priceId));
        if (!plan) return false;
        if (tenant.subscriptionId && tenant.productName === plan.productName) {
          await tx.update(checkoutSessions).set({ status: 'canceled' }).where(eq(checkoutSessions.id, session.id));
          return 'plan-held';
        }
        await tx
          .update(tenants)
          .set({
            productName: plan.productName,
            subscriptionId: subscriptionId ?? `sub_${session.id}`,
            limitInteractions: plan.limitInteractions,
            limitDeployments: plan.limitDeployments,
            usageInteractions: 0,
          })
          .where(eq(tenants.id, tenant.id));
        await tx
          .update(tenantBilling)
          .set({
            planSlug: plan.slug,
            subscriptionStatus: 'active',
            periodStart: period?.start ?? now,
            periodEnd: period?.end ?? addMonth(now),
            overageUsed: 0,
            updatedAt: now,
          })
          .where(eq(tenantBilling.tenantId, tenant.id));
      } else {
        const [pack] = await tx.select().from(creditPacks).where(eq(creditPacks.priceId, session.priceId));
        if (!pack) return false;
        await tx
          .insert(tenantCredits)
          .values({
            tenantId: tenant.id,
            productId: pack.productId,
            interactions: pack.interactions,
            checkoutSessionId: session.id,
            createdAt: now,
          })
          .onConflictDoNothing();
      }
      await tx
        .update(checkoutSessions)
        .set({ status: 'paid', fulfilledAt: now })
        .where(eq(checkoutSessions.id, session.id));
      // The billing assistant's objectives, with the purchase: a plan chosen and paid, or a pack bought.
      const steps =
        session.mode === 'subscription' ? [BILLING_STEPS.choose, BILLING_STEPS.pay] : [BILLING_STEPS.credits];
      for (const stepId of steps)
        await setObjectiveStep(tx, {
          userId: tenant.userId,
          key: BILLING_OBJECTIVES_KEY,
          flow: 'billing',
          stepId,
          status: 'completed',
        });
      return true;
    });
  }

  /**
   * The subscription ended: back to the free plan (whose trial may be over). With
   * `subscriptionId`, only when that is still the tenant's subscription (the end of a plan that was
   * replaced by another changes nothing). Answers whether it ended.
   */
  async endSubscription(tenantId: string, now: Date, subscriptionId?: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const tenant = await this.lockTenant(tx, tenantId);
      if (!tenant) return false;
      if (subscriptionId !== undefined && tenant.subscriptionId !== subscriptionId) return false;
      const [free] = await tx.select().from(plans).where(eq(plans.slug, FREE));
      await this.billingRow(tx, tenant, now);
      const month = calendarMonth(now);
      await tx
        .update(tenants)
        .set({
          productName: free.productName,
          subscriptionId: null,
          limitInteractions: free.limitInteractions,
          limitDeployments: free.limitDeployments,
        })
        .where(eq(tenants.id, tenantId));
      await tx
        .update(tenantBilling)
        .set({
          planSlug: FREE,
          subscriptionStatus: 'canceled',
          periodStart: month.start,
          periodEnd: month.end,
          updatedAt: now,
        })
        .where(eq(tenantBilling.tenantId, tenantId));
      return true;
    });
  }

  /**
   * The provider's current state of the tenant's subscription `subscriptionId` (re-read from the
   * provider, never taken from an event): its status, and its period — a period that starts later
   * than ours is a renewal, and usage starts again. Nothing changes when `subscriptionId` is not
   * the tenant's subscription (an old plan, or one whose checkout is not fulfilled yet).
   */
  async applySubscription(
    tenantId: string,
    subscriptionId: string,
    state: { status: 'active' | 'past_due'; periodStart: Date; periodEnd: Date },
    now: Date,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const tenant = await this.lockTenant(tx, tenantId);
      if (!tenant || tenant.subscriptionId !== subscriptionId) return false;
      const billing = await this.billingRow(tx, tenant, now);
      const renewed = state.periodStart.getTime() > billing.periodStart.getTime();
      await tx
        .update(tenantBilling)
        .set({
          subscriptionStatus: state.status,
          ...(renewed ? { periodStart: state.periodStart, periodEnd: state.periodEnd, overageUsed: 0 } : {}),
          ...(!renewed && state.periodEnd.getTime() > billing.periodEnd.getTime()
            ? { periodEnd: state.periodEnd }
            : {}),
          updatedAt: now,
        })
        .where(eq(tenantBilling.tenantId, tenantId));
      if (renewed) await tx.update(tenants).set({ usageInteractions: 0 }).where(eq(tenants.id, tenantId));
      return true;
    });
  }

  /**
   * Records a provider event by its id: `new` the first time, `pending` when it was recorded
   * but its effect was not applied (a delivery that failed half-way), `done` when it was.
   */
  async recordEvent(id: string, type: string, payload: unknown): Promise<'new' | 'pending' | 'done'> {
    const rows = await this.db
      .insert(billingEvents)
      .values({ id, type, payload: payload })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    if (rows.length === 1) return 'new';
    const [seen] = await this.db
      .select({ processedAt: billingEvents.processedAt })
      .from(billingEvents)
      .where(eq(billingEvents.id, id));
    return seen?.processedAt ? 'done' : 'pending';
  }

  async markEventProcessed(id: string, now: Date): Promise<void> {
    await this.db.update(billingEvents).set({ processedAt: now }).where(eq(billingEvents.id, id));
  }

  // — the payment provider's customer —

  async stripeCustomerOf(tenantId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ id: tenantBilling.stripeCustomerId })
      .from(tenantBilling)
      .where(eq(tenantBilling.tenantId, tenantId));
    return row?.id ?? null;
  }

  /** Keeps the first Stripe customer recorded for the tenant and answers the one kept. */
  async setStripeCustomer(tenantId: string, customerId: string, now: Date): Promise<string> {
    await this.state(tenantId, now);
    await this.db
      .update(tenantBilling)
      .set({ stripeCustomerId: customerId })
      .where(and(eq(tenantBilling.tenantId, tenantId), isNull(tenantBilling.stripeCustomerId)));
    return (await this.stripeCustomerOf(tenantId)) ?? customerId;
  }

  async tenantByStripeCustomer(stripeCustomerId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ tenantId: tenantBilling.tenantId })
      .from(tenantBilling)
      .where(eq(tenantBilling.stripeCustomerId, stripeCustomerId));
    return row?.tenantId;
  }

  async setStripePriceId(kind: 'plan' | 'pack', priceId: string, stripePriceId: string): Promise<void> {
    if (kind === 'plan') await this.db.update(plans).set({ stripePriceId }).where(eq(plans.priceId, priceId));
    else await this.db.update(creditPacks).set({ stripePriceId }).where(eq(creditPacks.priceId, priceId));
  }

  /** How many checkouts of this price the tenant has paid: a new purchase after one is a new checkout. */
  async paidCheckouts(tenantId: string, priceId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(checkoutSessions)
      .where(
        and(
          eq(checkoutSessions.tenantId, tenantId),
          eq(checkoutSessions.priceId, priceId),
          sql`${checkoutSessions.fulfilledAt} IS NOT NULL`,
        ),
      );
    return Number(row?.n ?? 0);
  }

  // — overage reported to the provider —

  /** The usage event of an answered message, if recorded. */
  async usageEventOf(messageId: string) {
    return this.usageEventWhere(eq(usageEvents.messageId, messageId));
  }

  /**
   * Of these messages, the overage interactions not reported to Stripe yet: message id → usage event id.
   * One statement for a whole `usage.record` batch (recorded by this run or before it).
   */
  async unreportedOverageOf(messageIds: string[]): Promise<Map<string, string>> {
    if (messageIds.length === 0) return new Map();
    const rows = await this.db
      .select({ id: usageEvents.id, messageId: usageEvents.messageId })
      .from(usageEvents)
      .where(
        and(
          sql`${usageEvents.messageId} = ANY(${sql.param(messageIds)}::uuid[])`,
          eq(usageEvents.source, 'overage'),
          isNull(usageEvents.meterReportedAt),
        ),
      );
    return new Map(rows.map((r) => [r.messageId, r.id]));
  }

  /** A usage event with its tenant's Stripe customer. */
  async usageEventById(id: string) {
    return this.usageEventWhere(eq(usageEvents.id, id));
  }

  private async usageEventWhere(where: SQL) {
    const [row] = await this.db
      .select({
        id: usageEvents.id,
        source: usageEvents.source,
        createdAt: usageEvents.createdAt,
        meterReportedAt: usageEvents.meterReportedAt,
        stripeCustomerId: tenantBilling.stripeCustomerId,
      })
      .from(usageEvents)
      .leftJoin(tenantBilling, eq(tenantBilling.tenantId, usageEvents.tenantId))
      .where(where);
    return row;
  }

  async markMeterReported(usageEventId: string, now: Date): Promise<void> {
    await this.db
      .update(usageEvents)
      .set({ meterReportedAt: now })
      .where(and(eq(usageEvents.id, usageEventId), isNull(usageEvents.meterReportedAt)));
  }

  async setOverage(tenantId: string, enabled: boolean, capCents: number): Promise<void> {
    await this.db
      .update(tenantBilling)
      .set({ overageEnabled: enabled, overageCapCents: capCents })
      .where(eq(tenantBilling.tenantId, tenantId));
  }
}
