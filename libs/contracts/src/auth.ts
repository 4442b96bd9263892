import { z } from 'zod';

import { LANGUAGES } from './rules';

export const languageSchema = z.enum(LANGUAGES);

export * from './rules';
import type { Language } from './rules';

// — payloads (unknown keys are dropped: server-owned fields cannot be set) —

const text = (max: number) => z.string().max(max).default('');

export const registerSchema = z.object({
  username: text(320),
  password: text(200),
  email: z.string().max(320).optional(),
  config: z.object({ language: languageSchema.optional() }).optional(),
});
export type RegisterRequest = z.input<typeof registerSchema>;

export const loginSchema = z.object({ username: text(320), password: text(200) });
export type LoginRequest = z.input<typeof loginSchema>;

export const sendCodeSchema = z.object({ username: text(320) });
export const verifyCodeSchema = z.object({ username: text(320), code: text(32) });
export const refreshSchema = z.object({ refresh_token: text(200) });
export const logoutSchema = z.object({ refresh_token: z.string().max(200).optional() });
export const forgotPasswordSchema = z.object({ email: text(320) });
export const resetPasswordSchema = z.object({ newPassword: text(200) });

export const updateProfileSchema = z.object({
  firstname: z.string().trim().max(80).optional(),
  lastname: z.string().trim().max(80).optional(),
  config: z.object({ language: languageSchema.optional() }).optional(),
});
export type UpdateProfileRequest = z.input<typeof updateProfileSchema>;

// — answers —

/** Login, code verification and token exchange: the spec spells the refresh token `refresh_Token`. */
export interface LoginTokens {
  access_token: string;
  refresh_Token: string;
  refresh_token: string;
}
export interface RefreshedTokens {
  access_token: string;
  refresh_token: string;
}

export interface Subscription {
  productName: string;
  subscriptionId: string | null;
  limits: { deployments: { value: number }; interactions: { value: number } };
}

export interface TenantView {
  customerId: string;
  status: 'active' | 'inactive';
  subscription: Subscription;
  usage: { interactions: number };
  trial: { startedAt: string; endsAt: string; daysLeft: number; active: boolean };
}

export interface UserProfile {
  id: string;
  _id: string;
  username: string;
  email: string;
  firstname: string;
  lastname: string;
  config: { language: Language };
  verified: boolean;
  tenants: TenantView[];
  createdAt: string;
}

export interface AuthProviders {
  google: boolean;
}
