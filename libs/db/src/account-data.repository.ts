import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './client';

/** A row as the export writes it: plain JSON, dates as ISO strings (PostgreSQL's `to_json`). */
export type ExportRow = Record<string, unknown>;

/** A conversation of the account, with the visitor it belongs to when it is a website visitor's. */
export interface ExportConversation {
  id: string;
  kind: 'system' | 'builder' | 'test' | 'widget';
  systemName: string | null;
  sparkId: string | null;
  testId: string | null;
  createdAt: string;
  updatedAt: string;
  visitor: { id: string; origin: string | null; contactEmail: string | null; contactAt: string | null } | null;
}

export interface ExportDocument {
  id: string;
  name: string;
  origin: 'file' | 'owner';
  storageKey: string;
  size: number;
  sha256: string;
  status: string;
  pages: number | null;
  chars: number | null;
  language: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Reads everything of one account for its export (`GET /account/export`, `account.export`): every query names the
 * user, directly or through a Spark, tenant or conversation of theirs. Secrets never leave: no password hash, no
 * token or its hash, no sealed integration token.
 */
export class AccountDataRepository {
  constructor(private readonly db: Database) {}

  private async rows<T = ExportRow>(query: SQL): Promise<T[]> {
    return (await this.db.execute(query)).rows as T[];
  }

  /**
   * What the export weighs before compression, near enough to choose where it is built: the stored files and
   * the messages' JSON.
   */
  async estimateBytes(userId: string): Promise<number> {
    const [row] = await this.rows<{ n: string }>(sql`
      SELECT (coalesce((SELECT sum(size) FROM documents WHERE user_id = ${userId}), 0)
            + coalesce((SELECT sum(octet_length(m.data::text)) FROM messages m
                        JOIN conversations c ON c.id = m.conversation_id WHERE c.user_id = ${userId}), 0))::text AS n`);
    return Number(row?.n ?? 0);
  }

  /** The user (no secrets) with its tenants and each tenant's billing state. */
  async profile(userId: string): Promise<ExportRow | undefined> {
    const [row] = await this.rows<{ profile: ExportRow }>(sql`
      SELECT json_build_object(
        'id', u.id, 'username', u.username, 'email', u.email, 'firstname', u.firstname, 'lastname', u.lastname,
        'language', u.language, 'timeZone', u.time_zone, 'weeklyDigest', u.weekly_digest,
        'verifiedAt', u.verified_at, 'signsInWithPassword', u.password_hash IS NOT NULL,
        'signsInWithGoogle', u.google_sub IS NOT NULL, 'createdAt', u.created_at, 'updatedAt', u.updated_at,
        'tenants', coalesce((SELECT json_agg(json_build_object(
            'id', t.id, 'customerId', t.customer_id, 'status', t.status, 'productName', t.product_name,
            'subscriptionId', t.subscription_id, 'limits', json_build_object('deployments', t.limit_deployments,
            'interactions', t.limit_interactions), 'usageInteractions', t.usage_interactions,
            'trialStartedAt', t.trial_started_at, 'trialEndsAt', t.trial_ends_at, 'createdAt', t.created_at)
            ORDER BY t.created_at) FROM tenants t WHERE t.user_id = u.id), '[]'::json)
      ) AS profile
      FROM users u WHERE u.id = ${userId}`);
    return row?.profile;
  }

  async objectives(userId: string): Promise<ExportRow[]> {
    return this.rows(sql`
      SELECT key, flow, spark_id AS "sparkId", statuses, is_completed AS "isCompleted",
             created_at AS "createdAt", updated_at AS "updatedAt"
      FROM objectives WHERE user_id = ${userId} ORDER BY created_at, id`);
  }

  /** The e-mails the product sent to the account's address: when, what about, whether it left (not their text). */
  async emailsTo(address: string): Promise<ExportRow[]> {
    return this.rows(sql`
      SELECT subject, language, status, created_at AS "createdAt", sent_at AS "sentAt"
      FROM outbound_emails WHERE "to" = ${address} ORDER BY created_at, id`);
  }

  /** The billing history: the plan and its period, every checkout, the credit packs and the usage per period. */
  async billing(userId: string): Promise<ExportRow> {
    const tenant = sql`(SELECT id FROM tenants WHERE user_id = ${userId})`;
    const [subscription, checkouts, credits, usage] = await Promise.all([
      this.rows(sql`
        SELECT b.tenant_id AS "tenantId", b.plan_slug AS "plan", b.subscription_status AS "status",
               b.period_start AS "periodStart", b.period_end AS "periodEnd", b.overage_enabled AS "overageEnabled",
               b.overage_cap_cents AS "overageCapCents", b.overage_used AS "overageUsedInteractions",
               b.stripe_customer_id AS "stripeCustomerId"
        FROM tenant_billing b WHERE b.tenant_id IN ${tenant}`),
      this.rows(sql`
        SELECT s.id, s.mode, s.price_id AS "priceId", coalesce(p.product_name, k.name) AS "product",
               coalesce(p.unit_amount, k.unit_amount) AS "unitAmount", coalesce(p.currency, k.currency) AS "currency",
               s.provider, s.status, s.created_at AS "createdAt", s.fulfilled_at AS "paidAt"
        FROM checkout_sessions s
        LEFT JOIN plans p ON s.mode = 'subscription' AND p.price_id = s.price_id
        LEFT JOIN credit_packs k ON s.mode = 'payment' AND k.price_id = s.price_id
        WHERE s.tenant_id IN ${tenant} ORDER BY s.created_at, s.id`),
      this.rows(sql`
        SELECT product_id AS "productId", interactions, used, checkout_session_id AS "checkoutSessionId",
               created_at AS "createdAt"
        FROM tenant_credits WHERE tenant_id IN ${tenant} ORDER BY created_at, id`),
      this.rows(sql`
        SELECT period_start AS "periodStart", source, count(*)::int AS interactions
        FROM usage_events WHERE tenant_id IN ${tenant} GROUP BY period_start, source ORDER BY period_start, source`),
    ]);
    return { subscription, checkouts, creditPacks: credits, usagePerPeriod: usage };
  }

  async sparks(userId: string): Promise<ExportRow[]> {
    return this.rows(sql`
      SELECT id, name, pin, type, options, visitor_retention_days AS "visitorRetentionDays",
             widget_daily_limit AS "widgetDailyLimit",
             created_at AS "createdAt", updated_at AS "updatedAt"
      FROM sparks WHERE user_id = ${userId} ORDER BY created_at, id`);
  }

  /** Whether the Spark is published, where and how (never its token), with its allowed sites. */
  async deployment(sparkId: string): Promise<ExportRow> {
    const [published] = await this.rows(sql`
      SELECT channel, position, created_at AS "publishedAt", first_seen_at AS "firstSeenAt",
             first_seen_origin AS "firstSeenOrigin"
      FROM deployments WHERE spark_id = ${sparkId}`);
    const origins = await this.rows(sql`
      SELECT origin, source, created_at AS "createdAt" FROM allowed_origins WHERE spark_id = ${sparkId}
      ORDER BY created_at, id`);
    return { published: published ?? null, allowedSites: origins };
  }

  async documents(sparkId: string): Promise<ExportDocument[]> {
    return this.rows<ExportDocument>(sql`
      SELECT id, name, origin, storage_key AS "storageKey", size, sha256, status, pages, chars, language, error,
             created_at AS "createdAt", updated_at AS "updatedAt"
      FROM documents WHERE spark_id = ${sparkId} ORDER BY created_at, id`);
  }

  /** What was read of a document: its passages in order, with their pages. */
  async documentText(documentId: string): Promise<Array<{ page: number; content: string }>> {
    return this.rows(sql`
      SELECT page, content FROM document_chunks WHERE document_id = ${documentId} ORDER BY ord`);
  }

  /** The questions the Spark could not answer and the owner's answers to them. */
  async ownerAnswers(sparkId: string): Promise<ExportRow[]> {
    return this.rows(sql`
      SELECT u.question, u.language, u.created_at AS "askedAt", u.answered_at AS "answeredAt",
             (SELECT string_agg(c.content, E'\n' ORDER BY c.ord) FROM document_chunks c WHERE c.document_id = u.document_id)
               AS "answer"
      FROM unanswered_questions u WHERE u.spark_id = ${sparkId} ORDER BY u.created_at, u.id`);
  }

  async tests(sparkId: string): Promise<ExportRow[]> {
    return this.rows(sql`
      SELECT t.id, t.name, t.params, t.created_at AS "createdAt",
             coalesce((SELECT json_agg(json_build_object('error', e.error, 'createdAt', e.created_at) ORDER BY e.created_at)
                       FROM test_errors e WHERE e.test_id = t.id), '[]'::json) AS "errorsReported"
      FROM spark_tests t WHERE t.spark_id = ${sparkId} ORDER BY t.created_at, t.id`);
  }

  /** The Spark's document-sharing connections (never their tokens) and the files they follow. */
  async integrations(sparkId: string): Promise<ExportRow[]> {
    return this.rows(sql`
      SELECT c.provider, c.service, c.scopes, c.created_at AS "createdAt",
             coalesce((SELECT json_agg(json_build_object('path', i.path, 'documentId', i.document_id,
                         'skipped', i.skipped, 'updatedAt', i.updated_at) ORDER BY i.created_at)
                       FROM integration_items i WHERE i.connection_id = c.id), '[]'::json) AS "files"
      FROM integration_connections c WHERE c.spark_id = ${sparkId} ORDER BY c.created_at`);
  }

  /** Every conversation of the account (its own chats and its website visitors'), oldest first. */
  async conversations(userId: string): Promise<ExportConversation[]> {
    return this.rows<ExportConversation>(sql`
      SELECT c.id, c.kind, c.system_name AS "systemName", c.spark_id AS "sparkId", c.test_id AS "testId",
             c.created_at AS "createdAt", c.updated_at AS "updatedAt",
             CASE WHEN vc.conversation_id IS NULL THEN NULL ELSE json_build_object('id', v.id, 'origin', vc.origin,
               'contactEmail', v.contact_email, 'contactAt', v.contact_at) END AS visitor
      FROM conversations c
      LEFT JOIN visitor_conversations vc ON vc.conversation_id = c.id
      LEFT JOIN visitors v ON v.id = vc.visitor_id
      WHERE c.user_id = ${userId} ORDER BY c.created_at, c.id`);
  }

  async messages(conversationId: string): Promise<ExportRow[]> {
    return this.rows(sql`
      SELECT id, type, data, created_at AS "createdAt" FROM messages
      WHERE conversation_id = ${conversationId} ORDER BY created_at, id`);
  }
}
