import { z } from 'zod';

export const LANGUAGES = ['es', 'en'] as const;
export const languageSchema = z.enum(LANGUAGES);
export type Language = z.infer<typeof languageSchema>;

// — rules shared by the screens and the server (spec §5) —

export const PASSWORD_MIN = 8;
export const RESET_PASSWORD_MAX = 100;
export const CODE_LENGTH = 6;
export const RESEND_COOLDOWN_SECONDS = 30;

/** "Contains @" is the spec's rule for login/register; the forgot-password form wants a basic pattern. */
export const hasAt = (email: string) => email.includes('@');
export const BASIC_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

export const SPECIAL_CHAR = /[^A-Za-z0-9\s]/;

/** The criteria of the reset strength meter: length, digit, lowercase, uppercase, special. */
export function passwordCriteria(password: string) {
  return {
    length: password.length >= PASSWORD_MIN && password.length <= RESET_PASSWORD_MAX,
    digit: /\d/.test(password),
    lower: /[a-z]/.test(password),
    upper: /[A-Z]/.test(password),
    special: SPECIAL_CHAR.test(password),
  };
}

export type Strength = 'notStrong' | 'normal' | 'strong' | 'veryStrong';

/** Not Strong for 1–2 criteria, Normal for 3, Strong for 4, Very Strong for 5. */
export function passwordStrength(password: string): { met: number; strength: Strength | null } {
  const met = Object.values(passwordCriteria(password)).filter(Boolean).length;
  const strength =
    met === 0 ? null : met <= 2 ? 'notStrong' : met === 3 ? 'normal' : met === 4 ? 'strong' : 'veryStrong';
  return { met, strength };
}

/** Reset: 8–100 characters with a digit, a lowercase, an uppercase, a special character and no spaces. */
export function isValidResetPassword(password: string): boolean {
  const c = passwordCriteria(password);
  return c.length && c.digit && c.lower && c.upper && c.special && !/\s/.test(password);
}

/** Register: the hint's rules — at least 8, upper and lower case, a special character. */
export function isStrongEnoughForRegister(password: string): boolean {
  const c = passwordCriteria(password);
  return password.length >= PASSWORD_MIN && c.lower && c.upper && c.special;
}

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
