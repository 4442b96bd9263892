import { z } from 'zod';
import { VISITOR_RETENTION_MAX_DAYS, VISITOR_RETENTION_MIN_DAYS } from './rules';

// — the owner's data (issue 30): export and deletion —

/** `GET /account/export` of an account too large to zip at once: the worker builds it and e-mails its link. */
export const accountExportQueuedSchema = z.object({
  status: z.literal('queued'),
  exportId: z.string(),
  /** Where the link goes: the account's own address. */
  email: z.string(),
  /** How many days the link works once sent. */
  linkDays: z.number().int(),
});
export type AccountExportQueued = z.infer<typeof accountExportQueuedSchema>;

export const exportIdParams = z.object({ exportId: z.uuid() });
/** The e-mailed link's secret. */
export const exportDownloadQuery = z.object({ token: z.string().min(1).max(200) });

/**
 * `DELETE /account`: the e-mail address typed as confirmation (`DELETE_CONFIRMATION_MISMATCH` otherwise), and the
 * password, or for an account that signs in only with Google the code e-mailed by `POST /account/deletion-code`.
 */
export const deleteAccountSchema = z.object({
  confirmation: z.string().max(320),
  password: z.string().max(200).optional(),
  code: z.string().max(20).optional(),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountSchema>;

export const accountDeletedSchema = z.object({
  deleted: z.literal(true),
  /** The provider with which a paid subscription was cancelled, or null when there was none. */
  subscriptionCanceled: z.enum(['stripe', 'local']).nullable(),
});
export type AccountDeleted = z.infer<typeof accountDeletedSchema>;

export const deletionCodeSentSchema = z.object({ sent: z.literal(true), cooldownSeconds: z.number().int() });

/** How the account confirms its deletion: its password, or a code by e-mail when it signs in only with Google. */
export const deletionMethodSchema = z.object({ method: z.enum(['password', 'code']) });
export type DeletionMethod = z.infer<typeof deletionMethodSchema>;

// — website visitors —

/** `PUT /sparks/{sparkId}/deployment/retention`: days a visitor's conversation is kept after its last message. */
export const visitorRetentionSchema = z.object({
  days: z
    .number()
    .refine((n) => Number.isInteger(n) && n >= VISITOR_RETENTION_MIN_DAYS && n <= VISITOR_RETENTION_MAX_DAYS, {
      params: { code: 'RETENTION_DAYS_INVALID' },
    }),
});
export const visitorRetentionViewSchema = z.object({ sparkId: z.string(), days: z.number().int() });

/** `DELETE /public/widgets/{token}/conversations/{id}`: the visitor's own conversation is gone. */
export const widgetConversationDeletedSchema = z.object({ deleted: z.literal(true) });

/** `GET /account/privacy-policy` (public): where the privacy policy that sign-up asks to accept is. */
export const privacyPolicySchema = z.object({
  /** The operator's own page (`PRIVACY_POLICY_URL`), or null: the app's built-in page, `/privacy`. */
  url: z.string().nullable(),
});
