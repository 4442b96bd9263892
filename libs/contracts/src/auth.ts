import { z } from 'zod';

import { canonicalTimeZone } from './analytics';
import { LANGUAGES } from './rules';

export const languageSchema = z.enum(LANGUAGES);

export * from './rules';

// — payloads (unknown keys are dropped: server-owned fields cannot be set) —

const text = (max: number) => z.string().max(max).default('');

export const registerSchema = z.object({
  username: text(320),
  password: text(200),
  email: z.string().max(320).optional(),
  config: z.object({ language: languageSchema.optional() }).optional(),
});
export type RegisterRequest = z.input<typeof registerSchema>;

/** `code`: the code e-mailed when the account-wide limit of failed logins is reached (LOGIN_CODE_REQUIRED). */
export const loginSchema = z.object({ username: text(320), password: text(200), code: z.string().max(32).optional() });
export type LoginRequest = z.input<typeof loginSchema>;

export const sendCodeSchema = z.object({ username: text(320) });
/**
 * `password`: the one chosen at sign-up, from the client that signed up. It is kept only when given and right;
 * without it the code verifies the address and the pending password is dropped (docs/decisions.md).
 */
export const verifyCodeSchema = z.object({
  username: text(320),
  code: text(32),
  password: z.string().max(200).optional(),
});
export const refreshSchema = z.object({ refresh_token: text(200) });
export const logoutSchema = z.object({ refresh_token: z.string().max(200).optional() });
export const forgotPasswordSchema = z.object({ email: text(320) });
export const resetPasswordSchema = z.object({ newPassword: text(200) });

/**
 * The owner's time zone (IANA, e.g. `Europe/Madrid`), as analytics' `tz` takes it: a name the platform knows (never an
 * offset), kept under its canonical name; anything else is `TIME_ZONE_INVALID`.
 */
const timeZoneSchema = z
  .string()
  .max(64)
  .transform((name, ctx) => {
    const zone = canonicalTimeZone(name);
    if (zone === undefined) {
      ctx.addIssue({ code: 'custom', message: 'an IANA time zone (Area/City)', params: { code: 'TIME_ZONE_INVALID' } });
      return z.NEVER;
    }
    return zone;
  });

export const updateProfileSchema = z.object({
  firstname: z.string().trim().max(80).optional(),
  lastname: z.string().trim().max(80).optional(),
  config: z.object({ language: languageSchema.optional() }).optional(),
  /** Where the owner's week and days begin: the weekly digest's Monday morning (the app sends the browser's). */
  timeZone: timeZoneSchema.optional(),
  /** The weekly e-mail digest of the Sparks' figures: on unless turned off. */
  weeklyDigest: z.boolean().optional(),
});
export type UpdateProfileRequest = z.input<typeof updateProfileSchema>;

// — answers (each route's `data`; the api documents them in its OpenAPI document) —

/** Login, code verification and token exchange: the spec spells the refresh token `refresh_Token`. */
export const loginTokensSchema = z.object({
  access_token: z.string(),
  refresh_Token: z.string(),
  refresh_token: z.string(),
});
export type LoginTokens = z.infer<typeof loginTokensSchema>;

export const refreshedTokensSchema = z.object({ access_token: z.string(), refresh_token: z.string() });
export type RefreshedTokens = z.infer<typeof refreshedTokensSchema>;

export const subscriptionSchema = z.object({
  productName: z.string(),
  subscriptionId: z.string().nullable(),
  limits: z.object({
    deployments: z.object({ value: z.number() }),
    interactions: z.object({ value: z.number() }),
  }),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const tenantViewSchema = z.object({
  customerId: z.string(),
  status: z.enum(['active', 'inactive']),
  subscription: subscriptionSchema,
  usage: z.object({ interactions: z.number() }),
  trial: z.object({ startedAt: z.string(), endsAt: z.string(), daysLeft: z.number(), active: z.boolean() }),
});
export type TenantView = z.infer<typeof tenantViewSchema>;

export const userProfileSchema = z.object({
  id: z.string(),
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  config: z.object({ language: languageSchema }),
  /** The owner's IANA time zone; null until the app (or the owner) sets one: the digest then goes by UTC. */
  timeZone: z.string().nullable(),
  /** Whether the weekly digest e-mail is sent (Monday morning in `timeZone`). */
  weeklyDigest: z.boolean(),
  verified: z.boolean(),
  tenants: z.array(tenantViewSchema),
  createdAt: z.string(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

export const authProvidersSchema = z.object({ google: z.boolean() });
export type AuthProviders = z.infer<typeof authProvidersSchema>;

/** GET /auth/support: the address users write to for help (SUPPORT_EMAIL), or null when none is configured. */
export const supportContactSchema = z.object({ email: z.string().nullable() });
export type SupportContact = z.infer<typeof supportContactSchema>;

/** POST /auth/send-code: sent, and how long before another may be asked for. */
export const codeSentSchema = z.object({ sent: z.literal(true), cooldownSeconds: z.number().int() });
/** POST /users/forgot-password: answered the same whether or not the address has an account. */
export const mailSentSchema = z.object({ sent: z.literal(true) });
export const loggedOutSchema = z.object({ loggedOut: z.literal(true) });
/** POST /users/reset-password: whose password changed. */
export const passwordResetSchema = z.object({ username: z.string() });
/** GET /auth/service/{provider}/login: where the browser goes. */
export const providerLoginSchema = z.object({ url: z.string() });
