import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { FREE_PLAN_NAME } from '@sparks/domain/billing';
import { createdAt, id, ts } from './common';

export const languageEnum = pgEnum('language', ['es', 'en']);
export const tenantStatus = pgEnum('tenant_status', ['active', 'inactive']);

export const users = pgTable(
  'users',
  {
    id: id(),
    /** The e-mail, lower-cased: the login name. */
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    firstname: text('firstname').notNull().default(''),
    lastname: text('lastname').notNull().default(''),
    language: languageEnum('language').notNull().default('es'),
    verifiedAt: ts('verified_at'),
    googleSub: text('google_sub'),
    /** Bumped on logout and password reset: access tokens carry it, so old ones stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** The owner's IANA time zone (the browser's, sent by the app): when the weekly digest goes and what a day is. */
    timeZone: text('time_zone'),
    /** The weekly digest e-mail of the Sparks' figures (issue 35): on unless turned off in the profile. */
    weeklyDigest: boolean('weekly_digest').notNull().default(true),
    /** The local Monday of the last digest sent (or found empty): one per week, whatever the workers do. */
    digestSentOn: date('digest_sent_on', { mode: 'string' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_username_key').on(t.username), uniqueIndex('users_google_sub_key').on(t.googleSub)],
);

export const tenants = pgTable(
  'tenants',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: text('customer_id').notNull(),
    status: tenantStatus('status').notNull().default('active'),
    productName: text('product_name').notNull().default(FREE_PLAN_NAME),
    subscriptionId: text('subscription_id'),
    limitDeployments: integer('limit_deployments').notNull(),
    limitInteractions: integer('limit_interactions').notNull(),
    usageInteractions: integer('usage_interactions').notNull().default(0),
    trialStartedAt: ts('trial_started_at').notNull().defaultNow(),
    trialEndsAt: ts('trial_ends_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tenants_customer_id_key').on(t.customerId),
    index('tenants_user_idx').on(t.userId, t.createdAt),
    check('tenants_usage_nonnegative', sql`${t.usageInteractions} >= 0`),
  ],
);

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    consumedAt: ts('consumed_at'),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_user_idx').on(t.userId, t.createdAt)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    /** Set when the token was exchanged for a new one; presenting it again is reuse. */
    rotatedAt: ts('rotated_at'),
    revokedAt: ts('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash), index('refresh_tokens_family_idx').on(t.familyId)],
);

export const oneTimeTokenPurpose = pgEnum('one_time_token_purpose', ['password_reset', 'oauth_exchange']);

/** Single-use secrets sent by link or redirect: password resets and the Google sign-in hand-off. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: oneTimeTokenPurpose('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('one_time_tokens_hash_key').on(t.tokenHash)],
);
