import { z } from 'zod';
import { chatMessageViewSchema } from './chat';
import { DEPLOYMENT_DAILY_LIMIT_MAX, DEPLOYMENT_DAILY_LIMIT_MIN, MAX_MESSAGE_LENGTH } from './rules';

/**
 * A published Spark's public token, as it appears in the snippet (`dt_` and 43 URL-safe characters),
 * or the owner's short-lived preview token (`pv_` and a signed token, valid on the app's own origin).
 */
export const deployTokenParam = z.string().regex(/^(?:dt_[A-Za-z0-9_-]{20,64}|pv_[A-Za-z0-9_.-]{20,1500})$/);

export const widgetParams = z.object({ token: deployTokenParam });
export const widgetConversationParams = z.object({ token: deployTokenParam, conversationId: z.uuid() });

/** A visitor token asks for a renewal by presenting the previous one (it may have expired). */
export const visitorSessionSchema = z.object({ visitorToken: z.string().max(2000).optional() });

export const widgetMessageSchema = z.object({
  text: z.string().max(MAX_MESSAGE_LENGTH),
});

export const widgetContactSchema = z.object({
  email: z.email().max(254),
  conversationId: z.uuid().optional(),
});

/** A WordPress site (the Pulse) connects with the one-time site key the owner copied from /deploy. */
export const connectSiteSchema = z.object({
  siteKey: z
    .string()
    .max(67)
    .regex(/^sk_[A-Za-z0-9_-]{20,64}$/),
  origin: z.string().max(300),
});

// — the owner's side —

export const DEPLOY_CHANNELS = ['widget', 'pulse'] as const;
export type DeployChannel = (typeof DEPLOY_CHANNELS)[number];

export const publishSchema = z.object({
  channel: z.enum(DEPLOY_CHANNELS).optional(),
  position: z.enum(['right', 'left']).optional(),
});
export const originSchema = z.object({ origin: z.string().max(300) });
/** `PATCH /sparks/{sparkId}/deployment`: the owner's settings of the widget (issue 30: its daily limit). */
export const deploymentSettingsSchema = z.object({
  dailyLimit: z
    .number()
    .refine((n) => Number.isInteger(n) && n >= DEPLOYMENT_DAILY_LIMIT_MIN && n <= DEPLOYMENT_DAILY_LIMIT_MAX, {
      params: { code: 'DAILY_LIMIT_INVALID' },
    }),
});
export const visitorConversationsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const sparkConversationParams = z.object({ sparkId: z.uuid(), conversationId: z.uuid() });

/** What the widget needs to draw itself (public: no secret in here). */
export const widgetConfigViewSchema = z.object({
  sparkId: z.string(),
  name: z.string(),
  language: z.enum(['es', 'en']),
  initialMessage: z.string(),
  position: z.enum(['right', 'left']),
  theme: z.object({
    primary: z.string(),
    secondary: z.string(),
    icon: z.string().nullable(),
    /** The icon's SVG paths (`WIDGET_ICON_PATHS`): the loader draws the launcher from them. */
    iconPaths: z.array(z.string()),
  }),
  /** How many days the visitor's conversation is kept after its last message (the widget says so before the first). */
  retentionDays: z.number().int(),
});
export type WidgetConfigView = z.infer<typeof widgetConfigViewSchema>;

export const visitorSessionViewSchema = z.object({ visitorToken: z.string(), expiresAt: z.string() });
export type VisitorSessionView = z.infer<typeof visitorSessionViewSchema>;

export const deploymentViewSchema = z.object({
  sparkId: z.string(),
  published: z.boolean(),
  channel: z.enum(DEPLOY_CHANNELS).nullable(),
  position: z.enum(['right', 'left']),
  /** The whole token and snippet (the owner's own); null when unpublished or not readable any more. */
  token: z.string().nullable(),
  tokenPrefix: z.string().nullable(),
  snippet: z.string().nullable(),
  scriptUrl: z.string(),
  origins: z.array(z.object({ origin: z.string(), source: z.enum(['owner', 'pulse']), createdAt: z.string() })),
  publishedAt: z.string().nullable(),
  firstSeenAt: z.string().nullable(),
  firstSeenOrigin: z.string().nullable(),
  /** Days a visitor's conversation is kept after its last message (`PUT …/deployment/retention`). */
  visitorRetentionDays: z.number().int(),
  /** Visitor messages the widget answers a day (UTC) before 429 DEPLOYMENT_DAILY_LIMIT (`PATCH …/deployment`). */
  dailyLimit: z.number().int(),
  /** Visitor messages taken today (UTC) against it. */
  usedToday: z.number().int(),
  /**
   * Sites whose pages asked for the widget and were refused (not on the allow-list), newest first: the last 5 of
   * the last 7 days. Shown to the owner, who may allow one; nothing else comes of them.
   */
  refusedSites: z.array(z.object({ origin: z.string(), lastTriedAt: z.string() })),
});
export type DeploymentView = z.infer<typeof deploymentViewSchema>;

export const siteKeyViewSchema = z.object({ siteKey: z.string(), expiresAt: z.string() });
export type SiteKeyView = z.infer<typeof siteKeyViewSchema>;

/** What a connecting WordPress site gets back: enough to print the snippet itself. */
export const connectViewSchema = z.object({
  sparkId: z.string(),
  name: z.string(),
  token: z.string(),
  scriptUrl: z.string(),
  snippet: z.string(),
  origin: z.string(),
  language: z.enum(['es', 'en']),
  position: z.enum(['right', 'left']),
});
export type ConnectView = z.infer<typeof connectViewSchema>;

/** POST /sparks/{sparkId}/deployment/preview: a token for the live preview. */
export const previewTokenSchema = z.object({ token: z.string(), scriptUrl: z.string() });

/** One visitor conversation in the owner's list (read-only). */
export const visitorConversationSummarySchema = z.object({
  conversationId: z.string(),
  visitorId: z.string(),
  origin: z.string().nullable(),
  messages: z.number().int(),
  /** The visitor's first message (null while they have written nothing). */
  firstQuestion: z.string().nullable(),
  contactEmail: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A visitor's conversation: the owner's read-only view, and the widget's own. */
export const visitorConversationSchema = z.object({
  conversationId: z.string(),
  sparkId: z.string(),
  messages: z.array(chatMessageViewSchema),
});
export const widgetConversationSchema = z.object({
  conversationId: z.string(),
  messages: z.array(chatMessageViewSchema),
});
/** POST /public/widgets/{token}/conversations/{id}/messages: the reply once complete. */
export const widgetAnswerSchema = z.object({
  ai: chatMessageViewSchema.nullable(),
  messages: z.array(chatMessageViewSchema),
  human: chatMessageViewSchema,
});
export const contactSavedSchema = z.object({ saved: z.literal(true) });
