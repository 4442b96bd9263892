import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import {
  dueAlerts,
  nextSource,
  planHasRoom,
  trialEnded,
  type AlertLevel,
  type UsageSource,
} from '@sparks/domain/billing';
import type { Database, Transaction } from '../client';
import { EmailsRepository } from '../emails.repository';
import { plans, tenantBilling, tenantCredits, tenants, usageEvents, usageReservations, users } from '../schema/index';
import { billingRow, firstTenantOf, lockTenant, type BillingTenantRow, type TenantBillingRow } from './tenant-billing';

export type ReserveOutcome =
  { ok: true; source: UsageSource } | { ok: false; code: 'TRIAL_ENDED' | 'OUT_OF_INTERACTIONS' | 'ACCOUNT_INACTIVE' };

/** What a recorded interaction crossed: the 80 % / 100 % alerts to send, once per period each. */
export interface RecordOutcome {
  recorded: boolean;
  tenantId?: string;
  /** Where the recorded interaction was counted (the plan, a credit pack, overage). */
  source?: UsageSource;
  alerts: AlertLevel[];
  /** The alert e-mails written with the event (`outbound_emails` ids), to send. */
  emailIds?: string[];
}

/** What an 80 % / 100 % alert e-mail says: the owner, their language, and the period's figures. */
export interface UsageAlert {
  level: AlertLevel;
  language: 'es' | 'en';
  used: number;
  limit: number;
  plan: string;
}

/** Writes an alert e-mail's subject and text (the caller's templates). */
export type ComposeAlert = (alert: UsageAlert) => { subject: string; text: string };

/**
 * The interaction meter's rows: holds (`usage_reservations`), usage events, and the counters they are spent from (the
 * tenant's plan usage, the packs' `used`, the period's overage). Which source pays (`nextSource`), the trial
 * (`trialEnded`) and the alerts (`dueAlerts`) are decided in `@sparks/domain/billing`, under the tenant's row lock.
 */
export class UsageRepository {
  constructor(
    private readonly db: Database,
    /** Writes the usage alert e-mails, inside the recording's transaction (`withTx`). */
    private readonly emails = new EmailsRepository(db),
  ) {}

  /** The user's first tenant, whose balance the user's Sparks spend. */
  firstTenantOf(userId: string): Promise<BillingTenantRow | undefined> {
    return firstTenantOf(this.db, userId);
  }

  /**
   * Holds one interaction for `messageId`: from the plan, else the oldest pack with room, else
   * overage (when on and under its cap). Holding the same message twice holds it once. A disabled
   * account (tenant `inactive`) holds nothing: `ACCOUNT_INACTIVE`, read under the tenant's row lock.
   */
  async reserve(tenantId: string, reservationId: string, now: Date): Promise<ReserveOutcome> {
    return this.db.transaction(async (tx) => {
      const tenant = await lockTenant(tx, tenantId);
      if (!tenant) return { ok: false, code: 'OUT_OF_INTERACTIONS' };
      if (tenant.status !== 'active') return { ok: false, code: 'ACCOUNT_INACTIVE' };
      const [already] = await tx.select().from(usageReservations).where(eq(usageReservations.id, reservationId));
      if (already) return { ok: true, source: already.source };
      const billing = await billingRow(tx, tenant, now);
      if (trialEnded(tenant, now)) return { ok: false, code: 'TRIAL_ENDED' };
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

      const plan = { used: tenant.usageInteractions, held: heldOf('plan'), limit: tenant.limitInteractions };
      // The packs and the overage price are read only when the plan is spent (the common case needs neither).
      const full = !planHasRoom(plan);
      const packs = full
        ? await tx
            .select()
            .from(tenantCredits)
            .where(
              and(eq(tenantCredits.tenantId, tenantId), sql`${tenantCredits.used} < ${tenantCredits.interactions}`),
            )
            .orderBy(asc(tenantCredits.createdAt), asc(tenantCredits.id))
        : [];
      const subscribed = Boolean(tenant.subscriptionId);
      const [rate] =
        full && billing.overageEnabled && subscribed
          ? await tx.select({ unitAmount: plans.overageUnitAmount }).from(plans).where(eq(plans.slug, billing.planSlug))
          : [];
      const next = nextSource({
        plan,
        packs: packs.map((p) => ({
          id: p.id,
          interactions: p.interactions,
          used: p.used,
          held: heldOf('credits', p.id),
        })),
        overage: {
          enabled: billing.overageEnabled,
          subscribed,
          used: billing.overageUsed,
          held: heldOf('overage'),
          unitAmount: rate?.unitAmount ?? 0,
          capCents: billing.overageCapCents,
        },
      });
      if (!next) return { ok: false, code: 'OUT_OF_INTERACTIONS' };
      const creditId = next.source === 'credits' ? next.creditId : null;
      await tx.insert(usageReservations).values({ id: reservationId, tenantId, source: next.source, creditId });
      return { ok: true, source: next.source };
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
          billing && billing.periodEnd.getTime() > now.getTime() ? billing : await billingRow(tx, tenant, now),
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
        const alerts = dueAlerts({
          used,
          limit: tenant.limitInteractions,
          periodStart: billing.periodStart,
          alerted80For: billing.alerted80For,
          alerted100For: billing.alerted100For,
        });
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
    tx: Transaction,
    tenant: BillingTenantRow,
    levels: AlertLevel[],
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
}
